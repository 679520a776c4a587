/**
 * Spending notes: `settle_batch` v2 (per-match outcomes, six outputs, memos, roots of any age) and `withdraw`. Part of
 * the shared behaviour suite: in process and over JSON-RPC.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  NOTE_MEMO_BYTES,
  matchMemoHash,
  spendChangeMemoHash,
  validMatchV2PublicSignals,
  type ValidMatchV2Public,
} from '@nightjar/crypto';
import { parseAddress } from '@nightjar/protocol';
import { VAULT_ADDRESS, type LedgerEvent } from '../src/index.js';
import { waitFor } from './wait.js';
import {
  Actor,
  BAD_PROOF,
  GOOD_PROOF,
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
    it('consumes the locked inputs, appends all six outputs and stores both memos, verifying VALID_MATCH v2 over exactly its public inputs', async () => {
      const { bid, ask } = await h.lockedPair({ bid: 1_000n, ask: 10n });
      const shards = [0, 0, 2, 0, 0, 2];
      const notes = [10n, 490n, 10n, 500n, 0n, 1n].map((v, k) => slotNote(k, v, shards[k]));
      const outputs = notes.map((n) => outputOf(n));
      const memos = [memoHex(0xaa), memoHex(0xbb)];
      const match = await h.matchArgs(bid, ask, { outputs, memos });
      const calls = h.verifier.calls.length;
      const deadline = (await c.getSlot()) + 40;
      const rec = await h.settle([match], { settle_by_slot: deadline });
      expect(rec.err).toBeNull();
      expect(rec.result?.matches).toEqual([
        {
          match_idx: 0,
          ok: true,
          output_leaves: [
            { tree_id: 0, leaf_index: 2 },
            { tree_id: 0, leaf_index: 3 },
            { tree_id: 2, leaf_index: 0 },
            { tree_id: 0, leaf_index: 4 },
            { tree_id: 0, leaf_index: 5 },
            { tree_id: 2, leaf_index: 1 },
          ],
        },
      ]);
      // One VALID_MATCH v2 check, over the contract's public inputs built from the ledger's own records.
      expect(h.verifier.calls.slice(calls).map((x) => x.circuit)).toEqual(['valid_match_v2']);
      const market = (await c.getMarkets()).find((m) => m.market_id === SOL_USDC)!;
      const field = (hex: string) => BigInt('0x' + hex);
      expect(h.verifier.calls.at(-1)!.inputs).toEqual(
        validMatchV2PublicSignals({
          bidUseTag: field(bid.useTag),
          askUseTag: field(ask.useTag),
          marketId: parseAddress(SOL_USDC)!,
          baseMint: parseAddress(SOL)!,
          quoteMint: parseAddress(USDC)!,
          priceScale: BigInt(market.price_scale),
          feeBps: BigInt(market.fee_bps),
          feeOwnerCommitment: field((await c.getVault()).fee_owner_commitment),
          settleBySlot: BigInt(deadline),
          outputs: notes.map((n) => field(n.commitment)) as unknown as ValidMatchV2Public['outputs'],
          memoHash: matchMemoHash(Buffer.from(memos[0]!, 'hex'), Buffer.from(memos[1]!, 'hex'), shards),
        }),
      );
      expect(await c.getMemosBySignature({ signature: rec.signature })).toEqual({
        memos: [
          { index: 0, signature: rec.signature, match_idx: 0, party: 0, memo: memos[0], kind: 'fill' },
          { index: 1, signature: rec.signature, match_idx: 0, party: 1, memo: memos[1], kind: 'fill' },
        ],
      });
      expect((await c.getLeaves({ tree_id: 0, from: 2, to: 10 })).leaves.map((l) => l.value)).toEqual(
        [0, 1, 3, 4].map((k) => notes[k]!.commitment),
      );
      // No relock: the change note is free, as every output is.
      expect(
        await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier, notes[1]!.nullifier] }),
      ).toEqual([{ state: 'spent' }, { state: 'spent' }, { state: 'free' }]);
      // The ledger moved no value: deposits are all the vault holds, and all it counts.
      expect((await c.getSolvency()).mints.filter((m) => m.mint === SOL || m.mint === USDC)).toEqual(
        [
          { mint: SOL, vault_balance: '10', outstanding_note_value: '10' },
          { mint: USDC, vault_balance: '1000', outstanding_note_value: '1000' },
        ].sort((x, y) => (x.mint < y.mint ? -1 : 1)),
      );
      // Consumed: cannot be locked or settled again.
      expect((await h.lock(bid)).err?.code).toBe('NoteSpent');
      expect((await h.settle([await h.matchArgs(bid, ask)])).result?.matches?.[0]?.err?.code).toBe(
        'NoteSpent',
      );
    });

    it('a match whose proof fails changes nothing: nullifiers still locked, no leaves, no memos', async () => {
      const { bid, ask } = await h.lockedPair();
      const slot = await c.getSlot();
      const leaves = (await c.getTreeRoot({ tree_id: 0 })).leaf_count;
      const memos = await c.getMemos({ from: 0, to: 100 });
      const match = await h.matchArgs(bid, ask, { proof: BAD_PROOF });
      const rec = await h.settle([match]);
      expect(rec.err).toBeNull();
      expect(rec.result?.matches?.[0]?.err?.code).toBe('InvalidProof');
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(leaves);
      expect(await c.getMemos({ from: 0, to: 100 })).toEqual(memos);
      expect(await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier] })).toEqual([
        { state: 'locked', locked_until_slot: slot + 100 },
        { state: 'locked', locked_until_slot: slot + 100 },
      ]);
      // The same match with a proof that verifies lands.
      expect((await h.settle([{ ...match, proof: GOOD_PROOF }])).result?.matches?.[0]?.ok).toBe(true);
    });

    it('each match stands alone: a bad match fails, the good one lands, and a cheaply refused one costs no proof', async () => {
      const good = await h.lockedPair();
      const unlockedBid = await h.deposit(alice, USDC, 8n);
      const unlockedAsk = await h.deposit(alice, SOL, 8n);
      const calls = h.verifier.calls.length;
      const rec = await h.settle([
        await h.matchArgs(unlockedBid, unlockedAsk, { match_idx: 1 }),
        await h.matchArgs(good.bid, good.ask, { match_idx: 0 }),
      ]);
      expect(rec.err).toBeNull();
      expect(rec.result?.matches?.map((m) => [m.match_idx, m.ok, m.err?.code])).toEqual([
        [1, false, 'NotLocked'],
        [0, true, undefined],
      ]);
      expect(h.verifier.calls.length).toBe(calls + 1);
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(4 + 6);
    });

    it('refuses non-TEE signers, unknown markets, duplicate match indices, past deadlines and malformed matches as a whole', async () => {
      const { bid, ask } = await h.lockedPair();
      const m = await h.matchArgs(bid, ask);
      const calls = h.verifier.calls.length;
      expect((await h.settle([m], { by: alice })).err?.code).toBe('Unauthorized');
      expect((await h.settle([m], { market_id: alice.address })).err?.code).toBe('UnknownMarket');
      expect((await h.settle([m, m])).err?.code).toBe('InvalidArgs');
      const past = (await c.getSlot()) - 1;
      expect((await h.settle([m], { settle_by_slot: past })).err?.code).toBe('SettlementExpired');
      expect(h.verifier.calls.length).toBe(calls);
      const inputs = m.inputs as Record<string, unknown>[];
      const outputs = m.outputs as Record<string, unknown>[];
      const withOutput = (o: Record<string, unknown>) => ({ ...m, outputs: [o, ...outputs.slice(1)] });
      const malformed: Record<string, unknown>[] = [
        { ...m, inputs: [inputs[0]] },
        { ...m, inputs: [...inputs, inputs[0]] },
        { ...m, outputs: [] },
        withOutput({ ...outputs[0], slot: 0 }),
        withOutput({ ...outputs[0], commitment: '00'.repeat(32) }),
        // What settlements used to carry is refused, not ignored.
        withOutput({ ...outputs[0], amount: '10' }),
        withOutput({ ...outputs[0], mint: SOL }),
        withOutput({ ...outputs[0], opening_hash: bid.openingHash }),
        { ...m, inputs: [{ ...inputs[0], note_commitment: bid.commitment }, inputs[1]] },
        { ...m, inputs: [{ ...inputs[0], merkle_root: await h.currentRoot() }, inputs[1]] },
        { ...m, inputs: [bid.nullifier, ask.nullifier] },
        { ...m, memos: [] },
        { ...m, proof: undefined },
      ];
      for (const bad of malformed) expect((await h.settle([bad])).err?.code).toBe('InvalidArgs');
      expect((await c.getNoteStatus({ nullifier: bid.nullifier })).state).toBe('locked');
      expect((await h.settle([m])).result?.matches?.[0]?.ok).toBe(true);
    });

    it('refuses, per match and before its proof: repeated nullifiers or commitments, unknown shards, expired locks', async () => {
      const { bid, ask } = await h.lockedPair({ untilOffset: 30 });
      const six = sixOutputs();
      const replace = (k: number, o: Record<string, unknown>) => six.map((x, i) => (i === k ? o : x));
      const cases: [string, Record<string, unknown>[]][] = [
        ['DuplicateCommitment', replace(3, six[0]!)],
        ['DuplicateCommitment', replace(0, outputOf(bid))],
        ['BadTreeId', replace(0, { ...six[0], tree_id: 4 })],
      ];
      const calls = h.verifier.calls.length;
      for (const [code, outputs] of cases) {
        const rec = await h.settle([await h.matchArgs(bid, ask, { outputs })]);
        expect(rec.result?.matches?.[0]?.err?.code, JSON.stringify(outputs)).toBe(code);
      }
      // An input twice in a match.
      const twice = await h.settle([await h.matchArgs(bid, bid)]);
      expect(twice.result?.matches?.[0]?.err?.code).toBe('InvalidArgs');
      expect(h.verifier.calls.length).toBe(calls);
      // The same nullifier in two matches of a batch fails both, whatever the order.
      const other = await h.lockedPair({ untilOffset: 30 });
      const before = h.verifier.calls.length;
      const rec = await h.settle([
        await h.matchArgs(bid, ask, { match_idx: 0 }),
        await h.matchArgs(bid, other.ask, { match_idx: 1 }),
      ]);
      expect(rec.result?.matches?.map((x) => x.err?.code)).toEqual(['InvalidArgs', 'InvalidArgs']);
      expect(h.verifier.calls.length).toBe(before);
      await c.advanceSlots({ slots: 30 });
      expect((await h.settle([await h.matchArgs(bid, ask)])).result?.matches?.[0]?.err?.code).toBe(
        'LockExpired',
      );
      expect(await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier] })).toEqual([
        { state: 'free' },
        { state: 'free' },
      ]);
    }, 30_000);

    it('locks name any root their shard ever had: a lock against a root 500 appends old lands, and a settlement survives 500 appends between lock and settle', async () => {
      const bid = await h.deposit(alice, USDC, 9n);
      const ask = await h.deposit(alice, SOL, 9n, 1);
      const oldRoots = [await h.currentRoot(0), await h.currentRoot(1)];
      expect((await h.lock(bid)).err).toBeNull();
      expect((await h.lock(ask)).err).toBeNull();
      // 500 appends into each shard, one step each: far beyond the old 64-root window.
      const filler = new Actor();
      await c.requestAirdrop({ owner: filler.address, mint: SOL, amount: '1000000' });
      for (let i = 0; i < 500; i++)
        for (const treeId of [0, 1]) {
          const note = makeNote(SOL, 1n, treeId);
          await filler.send(c, 'deposit', {
            tree_id: treeId,
            mint: SOL,
            amount: '1',
            note_commitment: note.commitment,
            opening_hash: note.openingHash,
          });
        }
      expect((await h.settle([await h.matchArgs(bid, ask)])).result?.matches?.[0]?.ok).toBe(true);
      // A fresh note locked against the shard's root from before those 1,000 appends.
      const late = await h.deposit(alice, SOL, 3n);
      const lateRoot = oldRoots[0]!;
      const rec = await h.tee.send(c, 'lock_note', await h.lockArgs(late, { root: lateRoot }));
      expect(rec.err).toBeNull();
      expect(h.verifier.calls.at(-1)!.inputs[1]).toBe(BigInt('0x' + lateRoot));
      // Never a root of this shard: another shard's, or none at all.
      const stranger = await h.deposit(alice, SOL, 4n);
      for (const root of [oldRoots[1]!, await h.currentRoot(1), '01'.repeat(32)])
        expect((await h.tee.send(c, 'lock_note', await h.lockArgs(stranger, { root }))).err?.code).toBe(
          'UnknownRoot',
        );
      // Withdrawals and join-splits take any root too.
      expect(
        (
          await alice.send(c, 'withdraw', {
            ...(await withdrawAll(stranger, alice.address)),
            merkle_root: lateRoot,
          })
        ).err,
      ).toBeNull();
    }, 120_000);
  });

  describe('note state events and the nullifier set', () => {
    beforeEach(refresh);
    it('announces each lock, release and spend as getNoteStatus reads it, and pages the sets', async () => {
      const events: Extract<LedgerEvent, { type: 'note' }>[] = [];
      const off = c.subscribe((e) => e.type === 'note' && events.push(e));
      const note = await h.deposit(alice, SOL, 40n);
      const slot = await c.getSlot();
      await h.lock(note, 10);
      expect((await h.tee.send(c, 'release_lock', { nullifier: note.nullifier })).err).toBeNull();
      // Withdrawn: spent for good.
      expect((await alice.send(c, 'withdraw', await withdrawAll(note, new Actor().address))).err).toBeNull();
      await waitFor(() => events.length >= 3);
      off();
      expect(
        events.map(({ type, nullifier, state, locked_until_slot }) => ({
          type,
          nullifier,
          state,
          locked_until_slot,
        })),
      ).toEqual([
        { type: 'note', nullifier: note.nullifier, state: 'locked', locked_until_slot: slot + 10 },
        { type: 'note', nullifier: note.nullifier, state: 'free', locked_until_slot: undefined },
        { type: 'note', nullifier: note.nullifier, state: 'spent', locked_until_slot: undefined },
      ]);

      const other = await h.deposit(alice, SOL, 5n);
      await h.lock(other, 20);
      const spent = await c.getSpentNullifiers({ from: 0 });
      expect(spent.nullifiers).toContain(note.nullifier);
      expect(await c.getSpentNullifiers({ from: spent.next })).toEqual({ nullifiers: [], next: spent.next });
      const locks = await c.getLiveLocks({ from: 0 });
      expect(locks.locks).toContainEqual({
        nullifier: other.nullifier,
        until_slot: (await c.getSlot()) + 20,
      });
      expect(locks.locks.map((l) => l.nullifier)).not.toContain(note.nullifier);
    });
  });

  describe('withdraw', () => {
    beforeEach(refresh);
    it('pays the recipient with a VALID_SPEND proof and marks the nullifier spent', async () => {
      const note = await h.deposit(alice, SOL, 40n);
      const bob = new Actor();
      const args = await withdrawAll(note, bob.address);
      // A junk proof is refused before landing (-32002, InvalidProof): nothing is stored.
      await expect(alice.send(c, 'withdraw', { ...args, proof: BAD_PROOF })).rejects.toMatchObject({
        code: -32002,
        message: expect.stringMatching(/^InvalidProof/),
      });
      expect((await alice.send(c, 'withdraw', { ...args, merkle_root: '05'.repeat(32) })).err?.code).toBe(
        'UnknownRoot',
      );
      expect((await alice.send(c, 'withdraw', args)).err).toBeNull();
      expect(h.verifier.calls.at(-1)!.circuit).toBe('valid_spend_v2');
      // No change: the proof's change_commitment is 0, and so is its change_memo_hash.
      expect(h.verifier.calls.at(-1)!.inputs[7]).toBe(0n);
      expect(h.verifier.calls.at(-1)!.inputs[8]).toBe(0n);
      expect(h.verifier.calls.at(-1)!.inputs[4]).toBe(40n);
      expect(await c.getBalance({ owner: bob.address, mint: SOL })).toBe('40');
      expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('0');
      expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteSpent');
      expect((await h.lock(note)).err?.code).toBe('NoteSpent');
    });

    it('pays out a settlement output, whose amount the ledger never knew, on its VALID_SPEND proof alone', async () => {
      const { bid, ask } = await h.lockedPair({ bid: 1_000n, ask: 10n });
      const out = slotNote(0, 10n);
      const outputs = sixOutputs().map((o, k) => (k === 0 ? outputOf(out) : o));
      expect((await h.settle([await h.matchArgs(bid, ask, { outputs })])).result?.matches?.[0]?.ok).toBe(
        true,
      );
      const bob = new Actor();
      const rec = await alice.send(c, 'withdraw', {
        ...(await withdrawAll(out, bob.address)),
        mint: SOL,
        amount: '10',
      });
      expect(rec.err).toBeNull();
      expect(await c.getBalance({ owner: bob.address, mint: SOL })).toBe('10');
      expect((await c.getSolvency()).mints.find((m) => m.mint === SOL)).toEqual({
        mint: SOL,
        vault_balance: '0',
        outstanding_note_value: '0',
      });
      expect(await c.getNoteStatus({ nullifier: out.nullifier })).toEqual({ state: 'spent' });
    });

    it('pays part of a note and appends its change, signed by a one-time key: value conserved, memo stored as a note memo', async () => {
      const note = await h.deposit(alice, SOL, 40n);
      const change = makeNote(SOL, 27n, 1);
      const memo = 'cd'.repeat(NOTE_MEMO_BYTES);
      const oneTime = new Actor(); // never landed anything: no history, no link to alice
      const bob = new Actor();
      const args = {
        ...(await withdrawAll(note, bob.address)),
        amount: '13',
        change: { tree_id: 1, commitment: change.commitment, memo },
      };
      const memosBefore = (await c.getMemos({ from: 0, to: 1_000 })).memos.length;
      const rec = await oneTime.send(c, 'withdraw', args);
      expect(rec.err).toBeNull();
      // The proof is checked against the change it appends.
      const call = h.verifier.calls.at(-1)!;
      expect(call.circuit).toBe('valid_spend_v2');
      expect(call.inputs[4]).toBe(13n);
      expect(call.inputs[7]).toBe(BigInt('0x' + change.commitment));
      // ... and against the change's shard and memo (change_memo_hash), read from the transaction.
      expect(call.inputs).toHaveLength(9);
      expect(call.inputs[8]).toBe(spendChangeMemoHash({ treeId: 1, memo: Buffer.from(memo, 'hex') }));
      expect(rec.result?.leaf).toEqual({ tree_id: 1, leaf_index: 0 });
      expect((await c.getLeaves({ tree_id: 1, from: 0, to: 1 })).leaves[0]!.value).toBe(change.commitment);
      expect(await c.getBalance({ owner: bob.address, mint: SOL })).toBe('13');
      // 27 stay in the vault, held by the change note (outstanding = deposited 40 − withdrawn 13).
      expect((await c.getSolvency()).mints.find((m) => m.mint === SOL)).toEqual({
        mint: SOL,
        vault_balance: '27',
        outstanding_note_value: '27',
      });
      const memos = (await c.getMemos({ from: 0, to: 1_000 })).memos.slice(memosBefore);
      expect(memos.map((m) => [m.kind, m.memo, m.signature])).toEqual([['note', memo, rec.signature]]);
      expect(await c.getNoteStatus({ nullifier: note.nullifier })).toEqual({ state: 'spent' });
    });

    it('refuses a change commitment that is already a leaf, or on a shard that does not exist', async () => {
      const note = await h.deposit(alice, SOL, 40n);
      const other = await h.deposit(alice, SOL, 5n);
      const memo = 'cd'.repeat(NOTE_MEMO_BYTES);
      const base = { ...(await withdrawAll(note, alice.address)), amount: '13' };
      const dup = { ...base, change: { tree_id: 0, commitment: other.commitment, memo } };
      expect((await new Actor().send(c, 'withdraw', dup)).err?.code).toBe('DuplicateCommitment');
      const noShard = { ...base, change: { tree_id: 99, commitment: makeNote(SOL, 27n).commitment, memo } };
      expect((await new Actor().send(c, 'withdraw', noShard)).err?.code).toBe('BadTreeId');
      expect(await c.getNoteStatus({ nullifier: note.nullifier })).toEqual({ state: 'free' });
    });

    it('refuses a locked note', async () => {
      const note = await h.deposit(alice, SOL, 40n);
      await h.lock(note);
      const args = await withdrawAll(note, alice.address);
      expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteLocked');
    });
  });
}
