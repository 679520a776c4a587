/**
 * What an observer of the whole ledger sees of settlement v2 (DESIGN 6, "Private settlement"),
 * read back through `getBlock` over every finalized slot after an order fills in three parts:
 * six outputs in every match; no lock's `until_slot` derived from an order's expiry (each follows
 * its settlement's window); no relock chain (a change note's nullifier never sits beside its
 * commitment, and no settlement's output commitment or input nullifier appears in any later
 * transaction); and every lock entry the engine sends carries a use tag and a proof, for a note
 * that backs one of its orders (its intake proof) or a change note it made (never a stranger's).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decryptFillMemo, deriveNote, noteNullifier } from '@nightjar/crypto';
import { fieldToHex, hexToBytes, parseAddress } from '@nightjar/protocol';
import { COMMITMENT_LAG, type BlockTransaction } from '@nightjar/ledger';
import { SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '@nightjar/testkit';
import { SETTLEMENT_LOCK_SLOTS } from '../../src/orders/market-engine.js';
import type { LockArgs } from '../../src/settlement/types.js';
import { has, nullifierOf, ONE_SOL, party, place, PRICE, settleUntil } from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

interface SettleMatch {
  inputs: { nullifier: string }[];
  outputs: { tree_id: number; commitment: string }[];
  memos: string[];
}

async function blocks(v: TestVenue, from: number): Promise<(BlockTransaction & { slot: number })[]> {
  await v.advance(COMMITMENT_LAG.finalized + 1);
  const out: (BlockTransaction & { slot: number })[] = [];
  for (let slot = from; slot <= v.ledger.clock.current - COMMITMENT_LAG.finalized; slot++)
    for (const tx of (await v.ledger.getBlock({ slot })).transactions) if (!tx.err) out.push({ ...tx, slot });
  return out;
}

describe('an observer of every finalized block', () => {
  it('three fills of one order: six outputs each, locks by window, no relock chain, no stranger locked', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const start = v.ledger.clock.current;
    const [alice, bob, carol, dave, eve] = [
      await party(v),
      await party(v),
      await party(v),
      await party(v),
      await party(v),
    ];
    const slot = BigInt(v.engine.context.chain.slot);
    // Far expiries, each its own: a lock derived from one would land thousands of slots ahead.
    const expiries = [slot + 3_000n, slot + 3_500n, slot + 3_700n, slot + 3_900n];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
    const asks: Note[] = [];
    for (const p of [bob, carol, dave]) asks.push(await p.trader.deposit(SOL, 2n * ONE_SOL));
    // A stranger's note: deposited, never backing an order.
    const stranger = await eve.trader.deposit(SOL, 5n * ONE_SOL);
    const bid = await place(v, alice, usdc, { amount: 3n * ONE_SOL, expiry_slot: expiries[0]! });
    const askIds: string[] = [];
    for (const [i, p] of [bob, carol, dave].entries())
      askIds.push(
        await place(v, p, asks[i]!, { amount: ONE_SOL, price_limit: PRICE, expiry_slot: expiries[i + 1]! }),
      );
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'three fills', 30_000);

    const txs = await blocks(v, start);
    const settles = txs.filter((t) => t.instruction.name === 'settle_batch');
    const locks = txs.filter((t) => t.instruction.name === 'lock_notes');
    const matches = settles.flatMap((t) => (t.instruction.args as { matches: SettleMatch[] }).matches);
    expect(matches).toHaveLength(3);

    // Six outputs in every match (zero-value ones too), two inputs, two memos of one length.
    for (const m of matches) {
      expect(m.outputs).toHaveLength(6);
      expect(m.inputs).toHaveLength(2);
      expect(new Set(m.memos.map((x) => x.length)).size).toBe(1);
      expect(Object.keys(m.inputs[0]!)).toEqual(['nullifier']);
    }

    // Locks follow the settlement window: a few slots past the landing slot plus the window, never
    // near any order's expiry.
    const entries = locks.flatMap((t) =>
      (t.instruction.args as { locks: LockArgs[] }).locks.map((l) => ({ l, slot: t.slot })),
    );
    expect(entries.length).toBeGreaterThanOrEqual(6);
    for (const { l, slot: landed } of entries) {
      const until = BigInt(l.until_slot);
      expect(until - BigInt(landed)).toBeLessThanOrEqual(SETTLEMENT_LOCK_SLOTS + 10n);
      for (const e of expiries) expect(until < e - 1_000n).toBe(true);
    }

    // No relock chain: each change note of Alice's (from her memos) — its nullifier never in the
    // settlement that created it, and no output commitment ever again after its settlement.
    const fills = alice.stream.events('fills').filter((f) => f.order_id === bid);
    expect(fills).toHaveLength(3);
    for (const f of fills.slice(0, 2)) {
      const memo = decryptFillMemo(alice.trader.viewing.privateKey, hexToBytes(f.memo));
      const c = deriveNote({
        mint: parseAddress(USDC)!,
        amount: memo.changeAmount,
        ownerCommitment: BigInt('0x' + usdc.ownerCommitment),
        noteInnerHash: memo.outputInners[1]!,
      }).noteCommitment;
      const commitment = fieldToHex(c);
      const nullifier = fieldToHex(noteNullifier(c, memo.outputInners[1]!));
      const creating = settles.find((t) => JSON.stringify(t.instruction.args).includes(commitment))!;
      expect(creating).toBeDefined();
      expect(JSON.stringify(creating.instruction.args)).not.toContain(nullifier);
    }
    for (const s of settles) {
      const args = s.instruction.args as { matches: SettleMatch[] };
      const published = args.matches.flatMap((m) => [
        ...m.outputs.map((o) => o.commitment),
        ...m.inputs.map((x) => x.nullifier),
      ]);
      for (const later of txs.slice(txs.indexOf(s) + 1)) {
        const text = JSON.stringify(later.instruction.args);
        for (const value of published) expect(text).not.toContain(value);
      }
    }

    // Every lock carries a use tag and a proof, and names a note that backed one of the orders
    // (the intake notes) or one of Alice's change notes; never the stranger's.
    const backing = new Set([usdc, ...asks].map(nullifierOf));
    const changes = new Set(
      fills.slice(0, 2).map((f) => {
        const memo = decryptFillMemo(alice.trader.viewing.privateKey, hexToBytes(f.memo));
        const c = deriveNote({
          mint: parseAddress(USDC)!,
          amount: memo.changeAmount,
          ownerCommitment: BigInt('0x' + usdc.ownerCommitment),
          noteInnerHash: memo.outputInners[1]!,
        }).noteCommitment;
        return fieldToHex(noteNullifier(c, memo.outputInners[1]!));
      }),
    );
    for (const { l } of entries) {
      expect(l.proof).toMatch(/^[0-9a-f]{512}$/);
      expect(l.use_tag).toMatch(/^[0-9a-f]{64}$/);
      expect(backing.has(l.nullifier) || changes.has(l.nullifier)).toBe(true);
    }
    expect(entries.some((e) => changes.has(e.l.nullifier))).toBe(true);
    expect(entries.map((e) => e.l.nullifier)).not.toContain(nullifierOf(stranger));
    expect((await v.ledger.getNoteStatus({ nullifier: nullifierOf(stranger) })).state).toBe('free');
  }, 60_000);
});
