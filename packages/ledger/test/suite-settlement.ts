/**
 * What the engine's settlement pipeline needs from the ledger: settle_batch v2 (six outputs, two
 * memos, settle_by_slot, the locks' use tags), batched locks with proofs,
 * note status by nullifier, memo pages, solvency, and reading a settle's outcome after a dropped
 * reply. Part of the shared behaviour suite: runs in process and over JSON-RPC.
 */
import { describe, expect, it } from 'vitest';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { MAX_MEMOS_PER_READ, VAULT_ADDRESS } from '../src/index.js';
import {
  Actor,
  BAD_PROOF,
  LOCK_ONLY_PROOF,
  makeNote,
  memoHex,
  outputOf,
  sixOutputs,
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
    return h.settle([await h.matchArgs(bid, pair.ask, { memos: options.memos, outputs: options.outputs })]);
  }

  describe('settle_batch v2', () => {
    it("consumes both locks, appends all six outputs in slot order, stores both memos, verifies against the locks' use tags", async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      const leaves = (await c.getTreeRoot({ tree_id: 0 })).leaf_count;
      const outputs = sixOutputs([0, 1, 0, 1, 0, 1]);
      const memos = [memoHex(0x01), memoHex(0x02)];
      const deadline = (await c.getSlot()) + 7;
      const calls = h.verifier.calls.length;
      const rec = await h.settle([await h.matchArgs(bid, ask, { outputs, memos })], {
        settle_by_slot: deadline,
      });
      const leaves1 = (await c.getTreeRoot({ tree_id: 1 })).leaf_count - 3;
      expect(rec.result?.matches?.[0]).toEqual({
        match_idx: 0,
        ok: true,
        output_leaves: [
          { tree_id: 0, leaf_index: leaves },
          { tree_id: 1, leaf_index: leaves1 },
          { tree_id: 0, leaf_index: leaves + 1 },
          { tree_id: 1, leaf_index: leaves1 + 1 },
          { tree_id: 0, leaf_index: leaves + 2 },
          { tree_id: 1, leaf_index: leaves1 + 2 },
        ],
      });
      expect(await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier] })).toEqual([
        { state: 'spent' },
        { state: 'spent' },
      ]);
      expect((await c.getMemosBySignature({ signature: rec.signature })).memos.map((m) => m.memo)).toEqual(
        memos,
      );
      // One VALID_MATCH v2 verification, its public inputs the lock records' tags, the deadline, the outputs.
      const asked = h.verifier.calls.slice(calls);
      expect(asked.map((a) => a.circuit)).toEqual(['valid_match_v2']);
      const inputs = asked[0]!.inputs;
      expect(inputs).toHaveLength(19);
      expect(inputs.slice(0, 2)).toEqual([BigInt('0x' + bid.useTag), BigInt('0x' + ask.useTag)]);
      expect(inputs[11]).toBe(BigInt(deadline));
      expect(inputs.slice(12, 18)).toEqual(outputs.map((o) => BigInt('0x' + (o.commitment as string))));
    });

    it('a batch landing after its settle_by_slot fails whole with SettlementExpired (manual clock)', async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      const slot = await c.getSlot();
      // Delayed by the network: accepted now, landing two slots later, one past its deadline.
      await c.setFaults({ latencySlots: 2 });
      const tx = h.tee.sign(
        {
          name: 'settle_batch',
          args: {
            batch_id: '5',
            market_id: SOL_USDC,
            settle_by_slot: String(slot + 1),
            matches: [await h.matchArgs(bid, ask)],
          },
        },
        undefined,
        await c.getChain(),
      );
      await c.sendTransaction({ transaction: tx });
      await c.setFaults({ latencySlots: 0 });
      await c.advanceSlots({ slots: 2 });
      const record = await c.getTransaction({ signature: tx.signature });
      expect(record?.slot).toBe(slot + 2);
      expect(record?.err?.code).toBe('SettlementExpired');
      expect(record?.err?.message).toBe('settlement landed after its settle_by_slot');
      expect((await c.getNoteStatus({ nullifier: bid.nullifier })).state).toBe('locked');
      // At its deadline slot it still lands.
      const now = await c.getSlot();
      const ok = await h.settle([await h.matchArgs(bid, ask)], { settle_by_slot: now });
      expect(ok.result?.matches?.[0]?.ok).toBe(true);
    });

    it('refuses any other shape: not six outputs, not two memos of 194 bytes, a relock, a root in an input', async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      const base = await h.matchArgs(bid, ask);
      const bad: Record<string, unknown>[] = [
        { ...base, outputs: sixOutputs().slice(0, 5) },
        { ...base, outputs: [...sixOutputs(), ...sixOutputs().slice(0, 1)] },
        { ...base, memos: [memoHex()] },
        { ...base, memos: [memoHex(), memoHex().slice(2)] },
        { ...base, memos: [memoHex(), memoHex() + 'ab'] },
        {
          ...base,
          outputs: sixOutputs().map((o, i) =>
            i === 1 ? { ...o, relock: { nullifier: makeNote(USDC, 1n).nullifier, until_slot: '9' } } : o,
          ),
        },
        { ...base, inputs: [{ nullifier: bid.nullifier, tree_id: 0 }, { nullifier: ask.nullifier }] },
        {
          ...base,
          outputs: sixOutputs().map((o, i) => (i === 2 ? { ...o, commitment: '00'.repeat(32) } : o)),
        },
      ];
      for (const m of bad) expect((await h.settle([m])).err?.code).toBe('InvalidArgs');
      const noDeadline = await h.tee.send(c, 'settle_batch', {
        batch_id: '1',
        market_id: SOL_USDC,
        matches: [base],
      });
      expect(noDeadline.err?.code).toBe('InvalidArgs');
      expect((await h.settle([base])).result?.matches?.[0]?.ok).toBe(true);
    });

    it('a lock swapped between admission and landing (released, locked again with another use tag) fails the verified proof: InvalidProof', async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      const chain = await c.getChain();
      await h.tee.sync(c);
      const next = BigInt((await c.getNonce({ signer: h.tee.address })) ?? '0');
      // The settlement is admitted (its proof judged against the ask's lock tag) and delayed.
      await c.setFaults({ latencySlots: 3 });
      const settle = h.tee.sign(
        {
          name: 'settle_batch',
          args: {
            batch_id: '9',
            market_id: SOL_USDC,
            settle_by_slot: String((await c.getSlot()) + 50),
            matches: [await h.matchArgs(bid, ask)],
          },
        },
        next + 10n,
        chain,
      );
      await c.sendTransaction({ transaction: settle });
      await c.setFaults({ latencySlots: 0 });
      // Meanwhile the same key releases the ask's lock and locks the note again for another order.
      const release = h.tee.sign(
        { name: 'release_lock', args: { nullifier: ask.nullifier } },
        next + 1n,
        chain,
      );
      await c.sendTransaction({ transaction: release });
      const other = makeNote(SOL, 1n).useTag;
      const relock = h.tee.sign(
        { name: 'lock_note', args: await h.lockArgs(ask, { useTag: other }) },
        next + 2n,
        chain,
      );
      await c.sendTransaction({ transaction: relock });
      await c.advanceSlots({ slots: 3 });
      const record = await c.getTransaction({ signature: settle.signature });
      expect(record?.err).toBeNull();
      expect(record?.result?.matches?.[0]?.err?.code).toBe('InvalidProof');
      expect(await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier] })).toMatchObject([
        { state: 'locked' },
        { state: 'locked' },
      ]);
      await h.tee.sync(c);
    });

    it('a lock from before settlement v2 (no use tag) cannot be settled: NotLocked', async () => {
      refresh();
      const { bid, ask } = await h.lockedPair();
      // As a data directory from before the upgrade holds it (store.ts migrates the column in).
      (h.ledger as unknown as { db: { prepare(sql: string): { run(...a: unknown[]): void } } }).db
        .prepare('UPDATE locks SET use_tag = NULL WHERE nullifier = ?')
        .run(ask.nullifier);
      const rec = await h.settle([await h.matchArgs(bid, ask)]);
      expect(rec.result?.matches?.[0]?.err?.code).toBe('NotLocked');
      expect((await c.getNoteStatus({ nullifier: ask.nullifier })).state).toBe('locked');
      expect((await h.tee.send(c, 'release_lock', { nullifier: ask.nullifier })).err).toBeNull();
    });
  });

  describe('lock_notes', () => {
    it('each lock stands alone; refused ones cost no verification; a failed proof refuses only its own lock', async () => {
      refresh();
      const notes: TestNote[] = [];
      for (const v of [1n, 2n, 3n, 4n]) notes.push(await h.deposit(alice, USDC, v));
      const spent = await h.lockedPair();
      await h.settle([await h.matchArgs(spent.bid, spent.ask)]);
      const calls = h.verifier.calls.length;
      const locks = [
        await h.lockArgs(notes[0]!),
        await h.lockArgs(notes[1]!, { untilOffset: 0 }),
        await h.lockArgs(spent.bid),
        await h.lockArgs(notes[2]!),
        await h.lockArgs(notes[2]!),
        await h.lockArgs(notes[3]!, { proof: BAD_PROOF }),
        await h.lockArgs(makeNote(USDC, 5n), { root: makeNote(USDC, 1n).nullifier }),
        { ...(await h.lockArgs(notes[1]!)), tree_id: 99 },
      ];
      const rec = await h.tee.send(c, 'lock_notes', { locks });
      expect(rec.err).toBeNull();
      expect(rec.result?.locks?.map((l) => [l.nullifier, l.ok, l.err?.code])).toEqual([
        [notes[0]!.nullifier, true, undefined],
        [notes[1]!.nullifier, false, 'BadLockExpiry'],
        [spent.bid.nullifier, false, 'NoteSpent'],
        [notes[2]!.nullifier, true, undefined],
        [notes[2]!.nullifier, false, 'NoteLocked'],
        [notes[3]!.nullifier, false, 'InvalidProof'],
        [locks[6]!.nullifier, false, 'UnknownRoot'],
        [notes[1]!.nullifier, false, 'BadTreeId'],
      ]);
      // Verified: the three that passed the cheap checks at admission (the duplicate too), each
      // against VALID_INPUT v2; the failing one against VALID_LOCK as well.
      const asked = h.verifier.calls.slice(calls).map((x) => x.circuit);
      expect(asked.filter((x) => x === 'valid_input_v2')).toHaveLength(4);
      expect(asked.filter((x) => x === 'valid_lock')).toHaveLength(1);
      const statuses = await c.getNoteStatuses({ nullifiers: notes.map((n) => n.nullifier) });
      expect(statuses.map((s) => s.state)).toEqual(['locked', 'free', 'locked', 'free']);
      // The locks it made are ordinary locks: a settle consumes them.
      expect((await settlePair({ bid: notes[0]! })).result?.matches?.[0]?.ok).toBe(true);
    });

    it('a lock proof is tried against VALID_INPUT v2, then VALID_LOCK (a change note): the use tag is recorded and settled against', async () => {
      refresh();
      const change = await h.deposit(alice, SOL, 9n);
      const bidNote = await h.deposit(alice, USDC, 9n);
      expect((await h.lock(bidNote)).err).toBeNull();
      const calls = h.verifier.calls.length;
      const rec = await h.tee.send(c, 'lock_notes', {
        locks: [await h.lockArgs(change, { proof: LOCK_ONLY_PROOF })],
      });
      expect(rec.result?.locks?.[0]).toEqual({ nullifier: change.nullifier, ok: true });
      const asked = h.verifier.calls.slice(calls);
      expect(asked.map((a) => a.circuit)).toEqual(['valid_input_v2', 'valid_lock']);
      // Both against [use_tag, merkle_root, nullifier].
      expect(asked[1]!.inputs).toEqual([
        BigInt('0x' + change.useTag),
        BigInt('0x' + (await h.currentRoot())),
        BigInt('0x' + change.nullifier),
      ]);
      const before = h.verifier.calls.length;
      expect((await h.settle([await h.matchArgs(bidNote, change)])).result?.matches?.[0]?.ok).toBe(true);
      expect(h.verifier.calls[before]!.inputs[1]).toBe(BigInt('0x' + change.useTag));
    });

    it('lock_note with a proof that fails both keys is refused whole (-32002), nothing stored, no nonce used', async () => {
      refresh();
      const note = await h.deposit(alice, SOL, 3n);
      const nonce = await c.getNonce({ signer: h.tee.address });
      await expect(
        c.sendTransaction({
          transaction: h.tee.sign(
            { name: 'lock_note', args: await h.lockArgs(note, { proof: BAD_PROOF }) },
            undefined,
            await c.getChain(),
          ),
        }),
      ).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/InvalidProof/) });
      expect(await c.getNonce({ signer: h.tee.address })).toBe(nonce);
      await h.tee.sync(c);
      expect((await c.getNoteStatus({ nullifier: note.nullifier })).state).toBe('free');
      // A lock_notes whose every proof fails is refused the same way.
      await expect(
        c.sendTransaction({
          transaction: h.tee.sign(
            { name: 'lock_notes', args: { locks: [await h.lockArgs(note, { proof: BAD_PROOF })] } },
            undefined,
            await c.getChain(),
          ),
        }),
      ).rejects.toMatchObject({ code: -32002 });
      await h.tee.sync(c);
      expect((await h.lock(note)).err).toBeNull();
    });

    it('only a finalized TEE key may batch-lock; at most 32 locks, at least one', async () => {
      refresh();
      const note = await h.deposit(alice, SOL, 3n);
      const one = await h.lockArgs(note);
      const calls = h.verifier.calls.length;
      expect((await alice.send(c, 'lock_notes', { locks: [one] })).err?.code).toBe('Unauthorized');
      expect((await alice.send(c, 'lock_note', one)).err?.code).toBe('Unauthorized');
      // A stranger's lock costs no verification.
      expect(h.verifier.calls.length).toBe(calls);
      expect((await h.tee.send(c, 'lock_notes', { locks: [] })).err?.code).toBe('InvalidArgs');
      const many = Array.from({ length: 33 }, () => one);
      expect((await h.tee.send(c, 'lock_notes', { locks: many })).err?.code).toBe('InvalidArgs');
      const { use_tag: _tag, ...untagged } = one;
      expect((await h.tee.send(c, 'lock_note', untagged)).err?.code).toBe('InvalidArgs');
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
      const [a0, a1, b0, b1, c0, c1] = [0xa0, 0xa1, 0xb0, 0xb1, 0xc0, 0xc1].map((f) => memoHex(f)) as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      for (const memos of [
        [a0, a1],
        [b0, b1],
        [c0, c1],
      ])
        sigs.push((await settlePair({ memos })).signature);
      const all = [
        { index: 0, signature: sigs[0], match_idx: 0, party: 0, memo: a0, kind: 'fill' },
        { index: 1, signature: sigs[0], match_idx: 0, party: 1, memo: a1, kind: 'fill' },
        { index: 2, signature: sigs[1], match_idx: 0, party: 0, memo: b0, kind: 'fill' },
        { index: 3, signature: sigs[1], match_idx: 0, party: 1, memo: b1, kind: 'fill' },
        { index: 4, signature: sigs[2], match_idx: 0, party: 0, memo: c0, kind: 'fill' },
        { index: 5, signature: sigs[2], match_idx: 0, party: 1, memo: c1, kind: 'fill' },
      ];
      expect((await c.getMemos({ from: 1, to: 3 })).memos).toEqual(all.slice(1, 3));
      expect((await c.getMemos({ from: 2, to: 2 })).memos).toEqual([]);
      expect((await c.getMemos({ from: 6, to: 9 })).memos).toEqual([]);
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
      const outputs = [
        x,
        slotNote(1, 0n),
        slotNote(2, 0n),
        slotNote(3, 7n),
        slotNote(4, 40n),
        slotNote(5, 0n),
      ].map((n) => outputOf(n));
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
      const leaves = (await c.getTreeRoot({ tree_id: 0 })).leaf_count;
      const memos = [memoHex(0xe1), memoHex(0xe2)];
      await c.setFaults({ dropRate: 1 });
      const tx = h.tee.sign({
        name: 'settle_batch',
        args: {
          batch_id: '77',
          market_id: SOL_USDC,
          settle_by_slot: String(slot + 10),
          matches: [
            await h.matchArgs(bid, ask, { memos }),
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
          output_leaves: Array.from({ length: 6 }, (_, i) => ({ tree_id: 0, leaf_index: leaves + i })),
        },
        { match_idx: 1, ok: false, err: { code: 'NotLocked', message: expect.any(String) } },
      ]);
      expect((await c.getMemosBySignature({ signature: tx.signature })).memos.map((m) => m.memo)).toEqual(
        memos,
      );
      const locks = await c.getTransaction({ signature: lockTx.signature });
      expect(locks?.result?.locks).toEqual([{ nullifier: loose.ask.nullifier, ok: true }]);
    });
  });
}
