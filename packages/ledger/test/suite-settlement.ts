/**
 * What the engine's settlement pipeline needs from the ledger: partial-fill relocks, batched locks,
 * note status by nullifier, memo pages, solvency, and reading a settle's outcome after a dropped
 * reply. Part of the shared behaviour suite: runs in process and over JSON-RPC.
 */
import { describe, expect, it } from 'vitest';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { MAX_MEMOS_PER_READ, VAULT_ADDRESS } from '../src/index.js';
import {
  Actor,
  makeNote,
  outputOf,
  slotNote,
  SOL,
  SOL_USDC,
  USDC,
  type SuiteContext,
  type TestNote,
} from './harness.js';

/** The memo page cap the suite's ledgers run with (the real one is 10,000). */
export const SUITE_MEMOS_PER_READ = 4;

export function settlementTests(get: () => SuiteContext): void {
  let { h, c, alice } = {} as SuiteContext;
  const refresh = () => ({ h, c, alice } = get());

  /** Settles one match of a fresh locked pair (optionally with `bid` as the bid input); returns the record. */
  async function settlePair(
    options: { bid?: TestNote; memos?: string[]; outputs?: Record<string, unknown>[] } = {},
  ) {
    const pair = await h.lockedPair();
    const bid = options.bid ?? pair.bid;
    return h.settle([
      await h.matchArgs(bid, pair.ask, { memos: options.memos ?? [], outputs: options.outputs }),
    ]);
  }

  describe('partial-fill relock', () => {
    it('locks the change note in the same settle; the lock holds and a later settle consumes it', async () => {
      refresh();
      const { bid, ask } = await h.lockedPair({ bid: 1_000n, ask: 10n });
      const slot = await c.getSlot();
      const change = slotNote(1, 490n);
      const rec = await h.settle([
        await h.matchArgs(bid, ask, {
          outputs: [
            outputOf(0, slotNote(0, 10n)),
            outputOf(1, change, { until_slot: slot + 200 }),
            outputOf(2, slotNote(2, 10n)),
            outputOf(3, slotNote(3, 500n)),
          ],
        }),
      ]);
      expect(rec.result?.matches?.[0]).toMatchObject({ ok: true });
      expect(await c.getNoteStatus({ nullifier: change.nullifier })).toEqual({
        state: 'locked',
        locked_until_slot: slot + 200,
      });
      // The lock is honoured: no second lock, no withdrawal, no release by anyone but its locker.
      expect((await h.lock(change)).err?.code).toBe('NoteLocked');
      expect((await alice.send(c, 'release_lock', { nullifier: change.nullifier })).err?.code).toBe(
        'Unauthorized',
      );
      const withdraw = await alice.send(c, 'withdraw', {
        tree_id: 0,
        merkle_root: await h.currentRoot(),
        nullifier: change.nullifier,
        mint: USDC,
        amount: '490',
        recipient: alice.address,
        proof: '11'.repeat(256),
      });
      expect(withdraw.err?.code).toBe('NoteLocked');
      // The remainder trades on with no new proof of its owner: the next settle consumes the relocked note.
      const next = await settlePair({ bid: change });
      expect(next.result?.matches?.[0]?.ok).toBe(true);
      expect(await c.getNoteStatus({ nullifier: change.nullifier })).toEqual({ state: 'spent' });
    });

    it('a relock follows lock rules; when it fails, its whole match fails and changes nothing', async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      const other = await h.deposit(alice, SOL, 5n);
      await h.lock(other);
      const spent = await h.lockedPair();
      expect((await h.settle([await h.matchArgs(spent.bid, spent.ask)])).result?.matches?.[0]?.ok).toBe(true);
      const slot = await c.getSlot();
      const leavesBefore = (await c.getTreeRoot({ tree_id: 0 })).leaf_count;
      const split = (relock: { until_slot: number; nullifier?: string }) => [
        outputOf(0, slotNote(0, 10n)),
        outputOf(3, slotNote(3, 990n)),
        outputOf(4, slotNote(4, 1n), relock),
      ];
      const cases: [string, { until_slot: number; nullifier?: string }][] = [
        ['BadLockExpiry', { until_slot: slot }],
        ['BadLockExpiry', { until_slot: slot + 4501 }],
        ['NoteLocked', { until_slot: slot + 50, nullifier: other.nullifier }],
        ['NoteSpent', { until_slot: slot + 50, nullifier: spent.ask.nullifier }],
      ];
      for (const [code, relock] of cases) {
        const rec = await h.settle([await h.matchArgs(bid, ask, { outputs: split(relock) })]);
        expect(rec.result?.matches?.[0]?.err?.code, code).toBe(code);
      }
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(leavesBefore);
      expect((await c.getNoteStatus({ nullifier: bid.nullifier })).state).toBe('locked');
      // The ceiling itself is allowed.
      const ok = await h.settle([
        await h.matchArgs(bid, ask, { outputs: split({ until_slot: slot + 4500 }) }),
      ]);
      expect(ok.result?.matches?.[0]?.ok).toBe(true);
    });

    it('an expired relock reads free, cannot be settled, is released and may be locked again', async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      const slot = await c.getSlot();
      const change = slotNote(1, 9n);
      const rec = await h.settle([
        await h.matchArgs(bid, ask, {
          outputs: [outputOf(0, slotNote(0, 10n)), outputOf(1, change, { until_slot: slot + 5 })],
        }),
      ]);
      expect(rec.result?.matches?.[0]?.ok).toBe(true);
      await c.advanceSlots({ slots: 5 });
      expect(await c.getNoteStatus({ nullifier: change.nullifier })).toEqual({ state: 'free' });
      const late = await settlePair({ bid: change });
      expect(late.result?.matches?.[0]?.err?.code).toBe('LockExpired');
      expect((await h.tee.send(c, 'release_lock', { nullifier: change.nullifier })).err).toBeNull();
      expect((await h.lock(change)).err).toBeNull();
    });
  });

  describe('lock_notes', () => {
    it('each lock stands alone, and none costs a proof verification', async () => {
      refresh();
      const notes: TestNote[] = [];
      for (const v of [1n, 2n, 3n]) notes.push(await h.deposit(alice, USDC, v));
      const spent = await h.lockedPair();
      await h.settle([await h.matchArgs(spent.bid, spent.ask)]);
      const calls = h.verifier.calls.length;
      const locks = [
        await h.lockArgs(notes[0]!),
        await h.lockArgs(notes[1]!, { untilOffset: 0 }),
        await h.lockArgs(spent.bid),
        await h.lockArgs(notes[2]!),
        await h.lockArgs(notes[2]!),
      ];
      const rec = await h.tee.send(c, 'lock_notes', { locks });
      expect(rec.err).toBeNull();
      expect(rec.result?.locks?.map((l) => [l.nullifier, l.ok, l.err?.code])).toEqual([
        [notes[0]!.nullifier, true, undefined],
        [notes[1]!.nullifier, false, 'BadLockExpiry'],
        [spent.bid.nullifier, false, 'NoteSpent'],
        [notes[2]!.nullifier, true, undefined],
        [notes[2]!.nullifier, false, 'NoteLocked'],
      ]);
      expect(h.verifier.calls.length).toBe(calls);
      const statuses = await c.getNoteStatuses({ nullifiers: notes.map((n) => n.nullifier) });
      expect(statuses.map((s) => s.state)).toEqual(['locked', 'free', 'locked']);
      // The locks it made are ordinary locks: a settle consumes them.
      expect((await settlePair({ bid: notes[0]! })).result?.matches?.[0]?.ok).toBe(true);
    });

    it('only a finalized TEE key may batch-lock; at most 32 locks, at least one', async () => {
      refresh();
      const note = await h.deposit(alice, SOL, 3n);
      const one = await h.lockArgs(note);
      expect((await alice.send(c, 'lock_notes', { locks: [one] })).err?.code).toBe('Unauthorized');
      expect((await h.tee.send(c, 'lock_notes', { locks: [] })).err?.code).toBe('InvalidArgs');
      const many = Array.from({ length: 33 }, () => one);
      expect((await h.tee.send(c, 'lock_notes', { locks: many })).err?.code).toBe('InvalidArgs');
      expect((await c.getNoteStatus({ nullifier: note.nullifier })).state).toBe('free');
    });
  });

  describe('getNoteStatus', () => {
    it('free → locked → spent, and a lock reads free once its until_slot is reached', async () => {
      refresh();
      const a = await h.deposit(alice, USDC, 8n);
      const b = await h.deposit(alice, SOL, 6n);
      expect(await c.getNoteStatus({ nullifier: a.nullifier })).toEqual({ state: 'free' });
      const slot = await c.getSlot();
      await h.lock(a, 10);
      expect(await c.getNoteStatus({ nullifier: a.nullifier.toUpperCase() })).toEqual({
        state: 'locked',
        locked_until_slot: slot + 10,
      });
      await c.advanceSlots({ slots: 9 });
      expect((await c.getNoteStatus({ nullifier: a.nullifier })).state).toBe('locked');
      await c.advanceSlots({ slots: 1 });
      expect(await c.getNoteStatus({ nullifier: a.nullifier })).toEqual({ state: 'free' });
      await h.lock(a, 10);
      expect((await settlePair({ bid: a })).result?.matches?.[0]?.ok).toBe(true);
      expect(await c.getNoteStatus({ nullifier: a.nullifier })).toEqual({ state: 'spent' });
      // Withdrawn notes are spent too; an unknown nullifier reads free (the ledger cannot tell).
      await alice.send(c, 'withdraw', {
        tree_id: 0,
        merkle_root: await h.currentRoot(),
        nullifier: b.nullifier,
        mint: SOL,
        amount: '6',
        recipient: alice.address,
        proof: '11'.repeat(256),
      });
      expect(
        await c.getNoteStatuses({ nullifiers: [b.nullifier, a.nullifier, makeNote(SOL, 1n).nullifier] }),
      ).toEqual([{ state: 'spent' }, { state: 'spent' }, { state: 'free' }]);
    });

    it('refuses malformed nullifiers and oversized lists', async () => {
      refresh();
      const tooBig = FIELD_MODULUS.toString(16).padStart(64, '0');
      for (const nullifier of ['ab', 'zz'.repeat(32), tooBig, 7 as unknown as string]) {
        await expect(c.getNoteStatus({ nullifier })).rejects.toMatchObject({ code: -32602 });
      }
      const n = makeNote(SOL, 1n).nullifier;
      expect(await c.getNoteStatuses({ nullifiers: [] })).toEqual([]);
      expect(await c.getNoteStatuses({ nullifiers: Array(256).fill(n) })).toHaveLength(256);
      await expect(c.getNoteStatuses({ nullifiers: Array(257).fill(n) })).rejects.toMatchObject({
        code: -32602,
      });
    });
  });

  describe('getMemos', () => {
    it('pages memos by global index, half-open, cut at the page cap', async () => {
      refresh();
      expect(await c.getMemos({ from: 0, to: 100 })).toEqual({ memos: [] });
      const sigs: string[] = [];
      for (const memos of [['a0', 'a1'], ['b0', 'b1'], ['c0']])
        sigs.push((await settlePair({ memos })).signature);
      const all = [
        { index: 0, signature: sigs[0], match_idx: 0, party: 0, memo: 'a0', kind: 'fill' },
        { index: 1, signature: sigs[0], match_idx: 0, party: 1, memo: 'a1', kind: 'fill' },
        { index: 2, signature: sigs[1], match_idx: 0, party: 0, memo: 'b0', kind: 'fill' },
        { index: 3, signature: sigs[1], match_idx: 0, party: 1, memo: 'b1', kind: 'fill' },
        { index: 4, signature: sigs[2], match_idx: 0, party: 0, memo: 'c0', kind: 'fill' },
      ];
      expect((await c.getMemos({ from: 1, to: 3 })).memos).toEqual(all.slice(1, 3));
      expect((await c.getMemos({ from: 2, to: 2 })).memos).toEqual([]);
      expect((await c.getMemos({ from: 5, to: 9 })).memos).toEqual([]);
      // A longer range is cut to the cap from `from`; the client continues after the last index.
      expect(SUITE_MEMOS_PER_READ).toBe(4);
      expect(MAX_MEMOS_PER_READ).toBe(10_000);
      expect((await c.getMemos({ from: 0, to: 1_000_000 })).memos).toEqual(all.slice(0, 4));
      expect((await c.getMemos({ from: 4, to: 1_000_000 })).memos).toEqual(all.slice(4));
      expect(await c.getMemosBySignature({ signature: sigs[1]! })).toEqual({ memos: all.slice(2, 4) });
    });

    it('refuses bad ranges', async () => {
      refresh();
      for (const bad of [{ from: 3, to: 1 }, { from: -1, to: 1 }, { from: 0.5, to: 1 }, { from: 0 }]) {
        await expect(c.getMemos(bad as { from: number; to: number })).rejects.toMatchObject({
          code: -32602,
        });
      }
      await expect(
        c.getMemos({ signature: 'ab'.repeat(64) } as unknown as { from: number; to: number }),
      ).rejects.toMatchObject({ code: -32602 });
    });
  });

  describe('getSolvency', () => {
    it('shows per mint the vault balance and the outstanding note value, through deposits, settles and withdrawals', async () => {
      refresh();
      const empty = await c.getSolvency();
      expect(empty.slot).toBe(await c.getSlot());
      const mints = empty.mints.map((m) => m.mint);
      expect(mints).toEqual([...mints].sort());
      expect(mints).toEqual(expect.arrayContaining([SOL, USDC]));
      const of = async (mint: string) => (await c.getSolvency()).mints.find((m) => m.mint === mint);
      expect(await of(SOL)).toEqual({ mint: SOL, vault_balance: '0', outstanding_note_value: '0' });

      const a = await h.deposit(alice, SOL, 100n);
      const b = await h.deposit(alice, USDC, 7n);
      expect(await of(SOL)).toEqual({ mint: SOL, vault_balance: '100', outstanding_note_value: '100' });
      expect(await of(USDC)).toMatchObject({ vault_balance: '7', outstanding_note_value: '7' });

      await h.lock(a);
      await h.lock(b);
      const x = slotNote(0, 60n);
      const outputs = [outputOf(0, x), outputOf(3, slotNote(3, 7n)), outputOf(4, slotNote(4, 40n))];
      expect((await h.settle([await h.matchArgs(b, a, { outputs })])).result?.matches?.[0]?.ok).toBe(true);
      // A settlement moves no value the ledger can see: both sides unchanged.
      expect(await of(SOL)).toMatchObject({ vault_balance: '100', outstanding_note_value: '100' });
      expect(await of(USDC)).toMatchObject({ vault_balance: '7', outstanding_note_value: '7' });

      await alice.send(c, 'withdraw', {
        tree_id: 0,
        merkle_root: await h.currentRoot(),
        nullifier: x.nullifier,
        mint: SOL,
        amount: '60',
        recipient: alice.address,
        proof: '11'.repeat(256),
      });
      expect(await of(SOL)).toEqual({ mint: SOL, vault_balance: '40', outstanding_note_value: '40' });
      expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('40');
    });
  });

  describe('getDeposits', () => {
    it("lists a signer's landed deposits, oldest first, with their notes, and pages by offset", async () => {
      refresh();
      const carol = new Actor();
      expect(await c.getDeposits({ owner: carol.address })).toEqual({ deposits: [] });
      const first = await h.deposit(carol, SOL, 11n);
      const second = await h.deposit(carol, USDC, 22n, 1);
      await h.deposit(alice, SOL, 33n);
      const { deposits } = await c.getDeposits({ owner: carol.address });
      expect(deposits.map((d) => [d.mint, d.amount, d.note_commitment, d.tree_id])).toEqual([
        [SOL, '11', first.commitment, 0],
        [USDC, '22', second.commitment, 1],
      ]);
      expect(deposits[0]!.signature).toMatch(/^[0-9a-f]{128}$/);
      expect((await c.getDeposits({ owner: carol.address, from: 1 })).deposits.map((d) => d.amount)).toEqual([
        '22',
      ]);
      await expect(c.getDeposits({ owner: 'not an address' })).rejects.toMatchObject({ code: -32602 });
    });
  });

  describe('reconciling after a dropped reply', () => {
    it("a settle's per-match outcomes and output leaves, and a lock_notes' per-lock outcomes, are readable by signature", async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      const loose = await h.lockedPair();
      await h.tee.send(c, 'release_lock', { nullifier: loose.ask.nullifier });
      const slot = await c.getSlot();
      const change = slotNote(1, 1n);
      const leaves = (await c.getTreeRoot({ tree_id: 0 })).leaf_count;
      await c.setFaults({ dropRate: 1 });
      const tx = h.tee.sign({
        name: 'settle_batch',
        args: {
          batch_id: '77',
          market_id: SOL_USDC,
          matches: [
            await h.matchArgs(bid, ask, {
              outputs: [outputOf(0, slotNote(0, 3n)), outputOf(1, change, { until_slot: slot + 9 })],
              memos: ['ee'],
            }),
            await h.matchArgs(loose.bid, loose.ask, { match_idx: 1 }),
          ],
        },
      });
      await expect(c.sendTransaction({ transaction: tx })).rejects.toMatchObject({ code: -32004 });
      const lockTx = h.tee.sign({ name: 'lock_notes', args: { locks: [await h.lockArgs(loose.ask)] } });
      await expect(c.sendTransaction({ transaction: lockTx })).rejects.toMatchObject({ code: -32004 });
      await c.setFaults({ dropRate: 0 });

      const [status] = await c.getSignatureStatuses({ signatures: [tx.signature] });
      expect(status).toMatchObject({ slot, err: null });
      const record = await c.getTransaction({ signature: tx.signature });
      expect(record?.result?.matches).toEqual([
        {
          match_idx: 0,
          ok: true,
          output_leaves: [
            { tree_id: 0, leaf_index: leaves },
            { tree_id: 0, leaf_index: leaves + 1 },
          ],
        },
        { match_idx: 1, ok: false, err: { code: 'NotLocked', message: expect.any(String) } },
      ]);
      expect(await c.getNoteStatus({ nullifier: change.nullifier })).toEqual({
        state: 'locked',
        locked_until_slot: slot + 9,
      });
      expect((await c.getMemosBySignature({ signature: tx.signature })).memos.map((m) => m.memo)).toEqual([
        'ee',
      ]);
      const locks = await c.getTransaction({ signature: lockTx.signature });
      expect(locks?.result?.locks).toEqual([{ nullifier: loose.ask.nullifier, ok: true }]);
    });
  });
}
