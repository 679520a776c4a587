/**
 * Issue 28 item 7: a failed settlement never released its locks (0 releases after 13 failures),
 * so a note stayed locked up to its lock's end (4,490 slots) after its order was gone. Now every
 * terminal failure of a match whose orders both leave gives back each lock the engine made for it
 * (`release_lock`, as cancel does), journaled first (a SIGKILL between failure and release:
 * failed-release-restart.test.ts). Forced failures over HTTPS and the stream, on the in-process
 * ledger with a manual clock; the notes' state read on the ledger as their owners would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError, RPC_ERRORS, type LedgerClient } from '@nightjar/ledger';
import { SOL, startTestVenue, Trader, USDC, type TestVenue, stubMatchProver } from '@nightjar/testkit';
import {
  has,
  noteState,
  nullifierOf,
  ONE_SOL,
  orderEvents,
  party,
  place,
  PRICE,
  settleUntil,
} from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

/** A ledger client that refuses every `settle_batch` before it lands (as a busy node would). */
const refusingSettles = (l: LedgerClient): LedgerClient =>
  new Proxy(l, {
    get(target, prop, recv) {
      if (prop === 'sendTransaction')
        return async (p: Parameters<LedgerClient['sendTransaction']>[0]) => {
          if (p.transaction.instruction.name === 'settle_batch')
            throw new RpcError(RPC_ERRORS.transactionRejected, 'refused');
          return target.sendTransaction(p);
        };
      const value = Reflect.get(target, prop, recv) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });

/** Crosses a bid and an ask, waits for both to fail, and returns their input notes' nullifiers. */
async function failedMatch(v: TestVenue, reason: string) {
  const [alice, bob] = [await party(v), await party(v)];
  const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
  const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
  const bid = await place(v, alice, usdc);
  const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
  await settleUntil(
    v,
    () => has(alice, bid, 'settlement_failed')() && has(bob, ask, 'settlement_failed')(),
    'both orders failed',
  );
  expect(orderEvents(alice, bid).at(-1)).toMatchObject({ reason });
  return [nullifierOf(usdc), nullifierOf(sol)];
}

/** Steps the clock until each note reads `free` (the releases land in a slot or two). */
async function expectReleased(v: TestVenue, nullifiers: string[]) {
  const states = async () => Promise.all(nullifiers.map((n) => noteState(v, n)));
  for (let i = 0; i < 20 && (await states()).some((s) => s !== 'free'); i++) await v.advance(1);
  expect(await states()).toEqual(nullifiers.map(() => 'free'));
}

describe('a failed settlement releases its locks', () => {
  it('the match proof fails after both inputs were locked: both notes are free again', async () => {
    const prover = stubMatchProver();
    prover.failWhen(() => true);
    const v = (venue = await startTestVenue({ settle: true, matchProver: prover }));
    const nullifiers = await failedMatch(v, 'settlement_rejected');
    await expectReleased(v, nullifiers);
    const m = v.engine.context.settlement.metricsSnapshot?.() as { counters: Record<string, number> };
    expect(m.counters.release_transactions).toBeGreaterThanOrEqual(2);
  });

  it('the ledger refuses every settle: once the match gives up, both notes are free again', async () => {
    const v = (venue = await startTestVenue({ settle: true, ledgerWrap: refusingSettles }));
    // Four refused sends, then the match ends (`lock_expired`: it could not land), its locks still live.
    const nullifiers = await failedMatch(v, 'lock_expired');
    await expectReleased(v, nullifiers);
  });
});
