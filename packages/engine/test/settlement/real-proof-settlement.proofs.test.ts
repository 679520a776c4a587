/**
 * Settlement v2 with genuine proofs end to end: the clients' VALID_INPUT v2 proofs, which the
 * engine's intake verifies in its worker pool and the ledger verifies again in each `lock_notes`
 * entry; the match's VALID_MATCH v2 proof, which the engine's prover makes in worker threads, its
 * verifier workers check, and the ledger's `settle_batch` verifies against the locks' use tags;
 * and a partially filled order's change note's VALID_LOCK, which the engine makes and the ledger
 * verifies in the remainder's lock. Nothing here is a stand-in for a proof or a proof check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { deriveNote } from '@nightjar/crypto';
import { fieldToHex, parseAddress, type PlaceOrderBody } from '@nightjar/protocol';
import type { BusEvent } from '../../src/event-bus.js';
import { NoteMatchProver } from '../../src/settlement/match-prover.js';
import { SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '@nightjar/testkit';
import { provedOrders, realLedgerVerifier, recordingVerifier } from '../real-proofs.js';

const ONE_SOL = 1_000_000_000n;
const PRICE = 150_000_000n;

function nullifierOf(note: Note): string {
  const d = deriveNote({
    mint: parseAddress(note.mint)!,
    amount: note.amount,
    ownerCommitment: BigInt('0x' + note.ownerCommitment),
    noteInnerHash: BigInt('0x' + note.innerHash),
  });
  return fieldToHex(d.nullifier);
}

describe('settlement with real proofs', () => {
  let v: TestVenue;
  let prover: NoteProver;
  /** Every verdict the ledger's verifier gave, and of which circuit. */
  let ledgerVerdicts: boolean[];
  let ledgerChecks: string[];
  beforeAll(async () => {
    prover = new NoteProver({ workers: 2 });
    await prover.start();
    const recorded = recordingVerifier(await realLedgerVerifier());
    ledgerVerdicts = recorded.verdicts;
    ledgerChecks = recorded.checks;
    v = await startTestVenue({
      settle: true,
      verifyInputProof: undefined,
      validInputKey: await loadVerificationKey('valid_input_v2'),
      verifierWorkers: 1,
      // The real prover (sharing this test's NoteProver) and the engine's own verifier workers.
      matchProver: new NoteMatchProver({ prover }),
      matchVerifier: undefined,
      validMatchKey: await loadVerificationKey('valid_match_v2'),
      ledgerVerifier: recorded.verifier,
    });
  });
  afterAll(async () => {
    await prover.close();
    await v?.close();
  });

  it('a full fill: intake verifies genuine VALID_INPUT proofs, settle_batch a genuine VALID_MATCH proof', async () => {
    const { token } = await v.newAccount();
    const [alice, bob] = [v.trader(), v.trader()];
    const usdc = await alice.depositNow(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE), 1);
    await v.advance(32);
    await v.engine.context.trees.checkAgainstChain();

    const events: BusEvent[] = [];
    const off = v.engine.events.subscribe((e) => events.push(e));
    const kinds = (orderId: string) =>
      events.flatMap((e) => (e.channel === 'orders' && e.body.order_id === orderId ? [e.body.kind] : []));

    const [bid, ask] = (await provedOrders(v, prover, [
      { trader: alice, note: usdc, fields: { amount: ONE_SOL, price_limit: PRICE } },
      { trader: bob, note: sol, fields: { amount: ONE_SOL, price_limit: PRICE } },
    ])) as [PlaceOrderBody, PlaceOrderBody];
    for (const body of [bid, ask]) {
      const r = await v.client.send('/orders', { token, body });
      expect(r.status, r.text).toBe(202);
    }
    expect(ledgerVerdicts).toEqual([]);

    // The test's clock runs a slot per ~20 ms, not 400 ms: it stands still while the match waits
    // for its proof (seconds on two shared cores), so the locks keep their slots as in production.
    const proving = () =>
      (v.engine.context.settlement.metricsSnapshot?.() as { queue_depth: Record<string, number> }).queue_depth
        .proving ?? 0;
    const deadline = performance.now() + 90_000;
    while (!(kinds(bid.order_id).includes('fully_filled') && kinds(ask.order_id).includes('fully_filled'))) {
      if (performance.now() > deadline) throw new Error(`no fill: ${JSON.stringify(kinds(bid.order_id))}`);
      if (proving() === 0) await v.advance(1);
      await new Promise((r) => setTimeout(r, 20));
    }
    off();
    expect(kinds(bid.order_id)).toEqual(['pending_settlement', 'fully_filled']);
    expect(kinds(ask.order_id)).toEqual(['pending_settlement', 'fully_filled']);

    // The ledger checked the two lock proofs (the clients' VALID_INPUT v2) and the match's
    // VALID_MATCH v2, and each passed; the engine proved the match once and its local verifier
    // accepted it before it was sent.
    expect(ledgerChecks).toEqual(['valid_input_v2:ok', 'valid_input_v2:ok', 'valid_match_v2:ok']);
    const m = v.engine.context.settlement.metricsSnapshot?.() as {
      counters: Record<string, number>;
      stage_latency: Record<string, { count: number; p50_ms: number }>;
    };
    expect(m.counters).toMatchObject({
      lock_transactions: 1,
      settle_transactions: 1,
      matches_confirmed: 1,
      proofs_failed: 0,
      proofs_refused_by_local_verifier: 0,
    });
    expect(m.stage_latency.prove?.count).toBe(1);
    expect(m.stage_latency.verify?.count).toBe(1);
    for (const note of [usdc, sol])
      expect((await v.ledger.getNoteStatus({ nullifier: nullifierOf(note) })).state).toBe('spent');
    const s = await v.ledger.getSolvency();
    for (const mint of s.mints) expect(mint.vault_balance).toBe(mint.outstanding_note_value);
  });

  it("a partial fill's remainder settles on its change note, locked with the engine's genuine VALID_LOCK", async () => {
    const { token } = await v.newAccount();
    const [alice, bob, carol] = [v.trader(), v.trader(), v.trader()];
    const usdc = await alice.depositNow(USDC, Trader.required('bid', 2n * ONE_SOL, PRICE));
    const sol1 = await bob.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE), 1);
    const sol2 = await carol.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE), 1);
    await v.advance(32);
    await v.engine.context.trees.checkAgainstChain();
    const [bid, ask1] = (await provedOrders(v, prover, [
      { trader: alice, note: usdc, fields: { amount: 2n * ONE_SOL, price_limit: PRICE } },
      { trader: bob, note: sol1, fields: { amount: ONE_SOL, price_limit: PRICE } },
    ])) as [PlaceOrderBody, PlaceOrderBody];
    const events: BusEvent[] = [];
    const off = v.engine.events.subscribe((e) => events.push(e));
    const kinds = (orderId: string) =>
      events.flatMap((e) => (e.channel === 'orders' && e.body.order_id === orderId ? [e.body.kind] : []));
    const checksBefore = ledgerChecks.length;
    for (const body of [bid, ask1])
      expect((await v.client.send('/orders', { token, body })).status).toBe(202);

    const proving = () =>
      (v.engine.context.settlement.metricsSnapshot?.() as { queue_depth: Record<string, number> }).queue_depth
        .proving ?? 0;
    const until = async (done: () => boolean, what: string) => {
      const deadline = performance.now() + 120_000;
      while (!done()) {
        if (performance.now() > deadline) throw new Error(`timed out: ${what}`);
        if (proving() === 0) await v.advance(1);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until(() => kinds(bid.order_id).includes('partially_filled'), 'the first fill');
    // Carol's ask arrives once the remainder rests on its change note.
    const [ask2] = (await provedOrders(v, prover, [
      { trader: carol, note: sol2, fields: { amount: ONE_SOL, price_limit: PRICE } },
    ])) as [PlaceOrderBody];
    expect((await v.client.send('/orders', { token, body: ask2 })).status).toBe(202);
    await until(() => kinds(bid.order_id).includes('fully_filled'), 'the remainder');
    off();
    expect(kinds(bid.order_id)).toEqual([
      'pending_settlement',
      'partially_filled',
      'pending_settlement',
      'fully_filled',
    ]);
    expect(kinds(ask2.order_id)).toEqual(['pending_settlement', 'fully_filled']);
    // The second lock: Carol's VALID_INPUT v2 and the change note's VALID_LOCK, which the ledger
    // tries after the VALID_INPUT v2 key refuses it (nothing in the entry says which it is).
    const checks = ledgerChecks.slice(checksBefore);
    expect(checks.filter((c) => c === 'valid_lock:ok')).toHaveLength(1);
    expect(checks.filter((c) => c === 'valid_match_v2:ok')).toHaveLength(2);
    expect(checks.filter((c) => c.endsWith(':refused'))).toEqual(['valid_input_v2:refused']);
    const m = v.engine.context.settlement.metricsSnapshot?.() as { counters: Record<string, number> };
    expect(m.counters).toMatchObject({ lock_proofs_made: 1, lock_proofs_failed: 0, proofs_failed: 0 });
    for (const note of [usdc, sol1, sol2])
      expect((await v.ledger.getNoteStatus({ nullifier: nullifierOf(note) })).state).toBe('spent');
    const s = await v.ledger.getSolvency();
    for (const mint of s.mints) expect(mint.vault_balance).toBe(mint.outstanding_note_value);
  }, 180_000);
});
