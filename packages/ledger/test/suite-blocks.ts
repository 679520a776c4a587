/**
 * `getBlock`: what any observer of the chain sees, and that a settlement shows it nothing of a
 * trade (DESIGN.md section 6, "Private settlement"). Part of the shared behaviour suite: in process
 * and over JSON-RPC.
 */
import { describe, expect, it } from 'vitest';
import { COMMITMENT_LAG, type Transaction } from '../src/index.js';
import { outputOf, slotNote, SOL, type SuiteContext } from './harness.js';

/** Every key of every object inside `value`. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  return into;
}

export function blockTests(get: () => SuiteContext): void {
  describe('getBlock', () => {
    it('lists every transaction that landed in a finalized slot, as sent and in order, failed ones too', async () => {
      const { h, c, alice } = get();
      await c.requestAirdrop({ owner: alice.address, mint: SOL, amount: '5' });
      const note = await h.deposit(alice, SOL, 9n);
      const slot = await c.getSlot();
      const sent: Transaction[] = [
        h.tee.sign({ name: 'lock_note', args: await h.lockArgs(note, { untilOffset: 50 }) }),
        alice.sign({ name: 'release_lock', args: { nullifier: note.nullifier } }),
        // Keys in an unusual order, and upper-case hex: stored and shown exactly as sent.
        h.tee.sign({ name: 'release_lock', args: { nullifier: note.nullifier.toUpperCase() } }),
      ];
      for (const tx of sent) await c.sendTransaction({ transaction: tx });
      await expect(c.getBlock({ slot })).rejects.toMatchObject({ code: -32602 });
      await c.advanceSlots({ slots: COMMITMENT_LAG.finalized - 1 });
      await expect(c.getBlock({ slot })).rejects.toMatchObject({ code: -32602 });
      await c.advanceSlots({ slots: 1 });
      const block = await c.getBlock({ slot });
      expect(block.slot).toBe(slot);
      // The deposit landed in this slot too (the faucet credit is no signed transaction).
      const deposit = block.transactions[0]!;
      expect(deposit).toMatchObject({ signer: alice.address, instruction: { name: 'deposit' }, err: null });
      expect(block.transactions.slice(1)).toEqual(
        sent.map((tx, i) => ({
          signature: tx.signature,
          signer: tx.signer,
          nonce: tx.nonce,
          instruction: tx.instruction,
          err: i === 1 ? { code: 'Unauthorized', message: expect.any(String) } : null,
        })),
      );
      expect(JSON.stringify(block.transactions[3]!.instruction)).toBe(JSON.stringify(sent[2]!.instruction));
      await c.advanceSlots({ slots: 1 });
      expect(await c.getBlock({ slot: slot + 1 })).toEqual({ slot: slot + 1, transactions: [] });
      for (const bad of [{ slot: -1 }, { slot: 1.5 }, {}, { slot: '3' }])
        await expect(c.getBlock(bad as { slot: number })).rejects.toMatchObject({ code: -32602 });
    });

    it('an observer of every block around a trade sees nullifiers, output commitments and proofs, never an amount, mint, order or input commitment', async () => {
      const { h, c } = get();
      const first = await c.getSlot();
      const { bid, ask } = await h.lockedPair({ bid: 1_000n, ask: 10n });
      await c.advanceSlots({ slots: 1 });
      const slot = await c.getSlot();
      const outputs = [10n, 490n, 10n, 490n, 0n, 0n].map((v, k) => outputOf(slotNote(k, v)));
      const rec = await h.settle([await h.matchArgs(bid, ask, { outputs })]);
      expect(rec.result?.matches?.[0]?.ok).toBe(true);
      await c.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
      const seen: { name: string; args: Record<string, unknown> }[] = [];
      for (let s = first; s <= slot + 1; s++)
        for (const tx of (await c.getBlock({ slot: s })).transactions)
          if (['lock_note', 'lock_notes', 'settle_batch'].includes(tx.instruction.name))
            seen.push(tx.instruction);
      expect(seen.map((i) => i.name)).toEqual(['lock_note', 'lock_note', 'settle_batch']);
      const forbidden = [
        'amount',
        'order_id',
        'note_commitment',
        'opening_hash',
        'mint',
        'price',
        'fee',
        'owner',
      ];
      for (const ins of seen) {
        const keys = keysOf(ins.args);
        expect(
          [...keys].filter((k) => forbidden.includes(k)),
          ins.name,
        ).toEqual([]);
        // The inputs' commitments (which would link them to their deposits) appear nowhere.
        const text = JSON.stringify(ins.args);
        for (const n of [bid, ask]) expect(text).not.toContain(n.commitment);
      }
      expect([...keysOf(seen[2]!.args)].sort()).toEqual(
        [
          'batch_id',
          'market_id',
          'settle_by_slot',
          'matches',
          'match_idx',
          'inputs',
          'nullifier',
          'outputs',
          'tree_id',
          'commitment',
          'memos',
          'proof',
        ].sort(),
      );
      // Six outputs in every match, whatever was filled; a lock shows a root and a use tag, no order.
      for (const m of seen[2]!.args.matches as { outputs: unknown[] }[]) expect(m.outputs).toHaveLength(6);
      expect([...keysOf(seen[0]!.args)].sort()).toEqual(
        ['tree_id', 'merkle_root', 'nullifier', 'use_tag', 'until_slot', 'proof'].sort(),
      );
    });
  });
}
