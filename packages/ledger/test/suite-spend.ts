/**
 * Spending notes: `settle_batch` (per-match outcomes, conservation, memos) and `withdraw`. Part of
 * the shared behaviour suite: in process and over JSON-RPC.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VAULT_ADDRESS } from '../src/index.js';
import {
  Actor,
  BAD_PROOF,
  GOOD_PROOF,
  makeNote,
  SOL,
  USDC,
  type SuiteContext,
  type TestNote,
} from './harness.js';

export function spendTests(get: () => SuiteContext): void {
  let { h, c, alice } = {} as SuiteContext;
  const refresh = () => ({ h, c, alice } = get());
  /** `withdraw` arguments paying all of `note` to `recipient` at the current root. */
  const withdrawAll = async (note: TestNote, recipient: string) => ({
    tree_id: 0,
    merkle_root: await h.currentRoot(),
    nullifier: note.nullifier,
    mint: SOL,
    amount: String(note.amount),
    recipient,
    proof: GOOD_PROOF,
  });

  describe('settle_batch', () => {
    beforeEach(refresh);
    it('consumes locked inputs, appends outputs and stores memos; value is conserved per mint', async () => {
      const bid = await h.deposit(alice, USDC, 1_000n);
      const bob = new Actor();
      const ask = await h.deposit(bob, SOL, 10n);
      await h.lock(bid);
      await h.lock(ask);
      const outputs = [
        { tree_id: 0, mint: SOL, amount: '10', opening_hash: makeNote(SOL, 10n).openingHash },
        { tree_id: 0, mint: USDC, amount: '990', opening_hash: makeNote(USDC, 990n).openingHash },
        { tree_id: 2, mint: USDC, amount: '10', opening_hash: makeNote(USDC, 10n).openingHash },
      ];
      const rec = await h.tee.send(c, 'settle_batch', {
        batch_id: '1',
        matches: [{ match_idx: 0, inputs: [bid.nullifier, ask.nullifier], outputs, memos: ['aa', 'bb'] }],
      });
      expect(rec.err).toBeNull();
      expect(rec.result?.matches).toEqual([
        {
          match_idx: 0,
          ok: true,
          output_leaves: [
            { tree_id: 0, leaf_index: 2 },
            { tree_id: 0, leaf_index: 3 },
            { tree_id: 2, leaf_index: 0 },
          ],
        },
      ]);
      expect(await c.getMemosBySignature({ signature: rec.signature })).toEqual({
        memos: [
          { index: 0, signature: rec.signature, match_idx: 0, party: 0, memo: 'aa' },
          { index: 1, signature: rec.signature, match_idx: 0, party: 1, memo: 'bb' },
        ],
      });
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(4);
      // Consumed: cannot be locked or settled again.
      expect((await h.lock(bid)).err?.code).toBe('NoteSpent');
    });

    it('each match stands alone: a bad match fails, the good one lands', async () => {
      const a = await h.deposit(alice, SOL, 7n);
      const b = await h.deposit(alice, SOL, 8n);
      await h.lock(a);
      const good = {
        match_idx: 0,
        inputs: [a.nullifier],
        outputs: [{ tree_id: 0, mint: SOL, amount: '7', opening_hash: makeNote(SOL, 7n).openingHash }],
        memos: [],
      };
      const unlocked = {
        match_idx: 1,
        inputs: [b.nullifier],
        outputs: [{ tree_id: 0, mint: SOL, amount: '8', opening_hash: makeNote(SOL, 8n).openingHash }],
        memos: [],
      };
      const rec = await h.tee.send(c, 'settle_batch', { batch_id: '2', matches: [unlocked, good] });
      expect(rec.err).toBeNull();
      expect(rec.result?.matches?.map((m) => [m.match_idx, m.ok, m.err?.code])).toEqual([
        [1, false, 'NotLocked'],
        [0, true, undefined],
      ]);
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(3);
    });

    it('refuses unbalanced value, expired locks, double consumption and non-TEE signers', async () => {
      const a = await h.deposit(alice, SOL, 7n);
      await h.lock(a, 30);
      const out = (amount: bigint) => [
        { tree_id: 0, mint: SOL, amount: String(amount), opening_hash: makeNote(SOL, amount).openingHash },
      ];
      const m = (amount: bigint, idx = 0) => ({
        match_idx: idx,
        inputs: [a.nullifier],
        outputs: out(amount),
        memos: [],
      });
      expect((await alice.send(c, 'settle_batch', { batch_id: '3', matches: [m(7n)] })).err?.code).toBe(
        'Unauthorized',
      );
      const unbalanced = await h.tee.send(c, 'settle_batch', { batch_id: '3', matches: [m(8n)] });
      expect(unbalanced.result?.matches?.[0]?.err?.code).toBe('ValueNotConserved');
      const twice = await h.tee.send(c, 'settle_batch', { batch_id: '4', matches: [m(7n, 0), m(7n, 1)] });
      expect(twice.result?.matches?.map((x) => x.err?.code)).toEqual([undefined, 'NoteSpent']);
      const b = await h.deposit(alice, SOL, 9n);
      await h.lock(b, 5);
      await c.advanceSlots({ slots: 5 });
      const expired = await h.tee.send(c, 'settle_batch', {
        batch_id: '5',
        matches: [{ match_idx: 0, inputs: [b.nullifier], outputs: out(9n), memos: [] }],
      });
      expect(expired.result?.matches?.[0]?.err?.code).toBe('LockExpired');
      expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('16');
    });
  });

  describe('withdraw', () => {
    beforeEach(refresh);
    it('pays the recipient with a VALID_SPEND proof and marks the nullifier spent', async () => {
      const note = await h.deposit(alice, SOL, 40n);
      const bob = new Actor();
      const args = await withdrawAll(note, bob.address);
      expect((await alice.send(c, 'withdraw', { ...args, proof: BAD_PROOF })).err?.code).toBe('InvalidProof');
      expect((await alice.send(c, 'withdraw', { ...args, merkle_root: '05'.repeat(32) })).err?.code).toBe(
        'UnknownRoot',
      );
      expect((await alice.send(c, 'withdraw', args)).err).toBeNull();
      expect(h.verifier.calls.at(-1)!.circuit).toBe('valid_spend');
      expect(h.verifier.calls.at(-1)!.inputs[4]).toBe(40n);
      expect(await c.getBalance({ owner: bob.address, mint: SOL })).toBe('40');
      expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('0');
      expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteSpent');
      expect((await h.lock(note)).err?.code).toBe('NoteSpent');
    });

    it('refuses a locked note', async () => {
      const note = await h.deposit(alice, SOL, 40n);
      await h.lock(note);
      const args = await withdrawAll(note, alice.address);
      expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteLocked');
    });
  });
}
