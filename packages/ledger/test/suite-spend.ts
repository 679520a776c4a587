/**
 * Spending notes: `settle_batch` (per-match outcomes, conservation, memos) and `withdraw`. Part of
 * the shared behaviour suite: in process and over JSON-RPC.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { validMatchPublicSignals, type ValidMatchPublic } from '@nightjar/crypto';
import { parseAddress } from '@nightjar/protocol';
import { VAULT_ADDRESS, type LedgerEvent } from '../src/index.js';
import { waitFor } from './wait.js';
import {
  Actor,
  BAD_PROOF,
  GOOD_PROOF,
  outputOf,
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
    it('consumes the locked inputs, appends the outputs and stores memos, verifying VALID_MATCH over exactly its public inputs', async () => {
      const { bid, ask } = await h.lockedPair({ bid: 1_000n, ask: 10n });
      const slot = await c.getSlot();
      const change = slotNote(1, 490n);
      const outputs = [
        outputOf(0, slotNote(0, 10n)),
        outputOf(1, change, { until_slot: slot + 50 }),
        outputOf(2, slotNote(2, 10n, 2)),
        outputOf(3, slotNote(3, 500n)),
        outputOf(5, slotNote(5, 1n, 2)),
      ];
      const match = await h.matchArgs(bid, ask, { outputs, memos: ['aa', 'bb'] });
      const calls = h.verifier.calls.length;
      const rec = await h.settle([match]);
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
            { tree_id: 2, leaf_index: 1 },
          ],
        },
      ]);
      // One VALID_MATCH check, over the contract's public inputs built from the ledger's own records.
      expect(h.verifier.calls.slice(calls).map((x) => x.circuit)).toEqual(['valid_match']);
      const market = (await c.getMarkets()).find((m) => m.market_id === SOL_USDC)!;
      const field = (hex: string) => BigInt('0x' + hex);
      const roots = (match.inputs as { merkle_root: string }[]).map((i) => field(i.merkle_root));
      expect(h.verifier.calls.at(-1)!.inputs).toEqual(
        validMatchPublicSignals({
          rootBid: roots[0]!,
          nullifierBid: field(bid.nullifier),
          rootAsk: roots[1]!,
          nullifierAsk: field(ask.nullifier),
          baseMint: parseAddress(SOL)!,
          quoteMint: parseAddress(USDC)!,
          priceScale: BigInt(market.price_scale),
          feeBps: BigInt(market.fee_bps),
          feeOwnerCommitment: field((await c.getVault()).fee_owner_commitment),
          outputs: [0, 1, 2, 3, 4, 5].map((k) => {
            const out = outputs.find((o) => o.slot === k) as { commitment: string } | undefined;
            return out ? field(out.commitment) : 0n;
          }) as unknown as ValidMatchPublic['outputs'],
          bidRelockNullifier: field(change.nullifier),
          askRelockNullifier: 0n,
        }),
      );
      expect(await c.getMemosBySignature({ signature: rec.signature })).toEqual({
        memos: [
          { index: 0, signature: rec.signature, match_idx: 0, party: 0, memo: 'aa', kind: 'fill' },
          { index: 1, signature: rec.signature, match_idx: 0, party: 1, memo: 'bb', kind: 'fill' },
        ],
      });
      expect((await c.getLeaves({ tree_id: 0, from: 2, to: 10 })).leaves.map((l) => l.value)).toEqual(
        [0, 1, 3].map((k) => (outputs[k] as { commitment: string }).commitment),
      );
      expect(
        await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier, change.nullifier] }),
      ).toEqual([{ state: 'spent' }, { state: 'spent' }, { state: 'locked', locked_until_slot: slot + 50 }]);
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

    it('a match whose proof fails changes nothing: nullifiers still locked, no leaves, no memos, no relock', async () => {
      const { bid, ask } = await h.lockedPair();
      const slot = await c.getSlot();
      const change = slotNote(4, 3n);
      const leaves = (await c.getTreeRoot({ tree_id: 0 })).leaf_count;
      const memos = await c.getMemos({ from: 0, to: 100 });
      const match = await h.matchArgs(bid, ask, {
        proof: BAD_PROOF,
        outputs: [
          outputOf(0, slotNote(0, 7n)),
          outputOf(3, slotNote(3, 1_000n)),
          outputOf(4, change, { until_slot: slot + 20 }),
        ],
        memos: ['aa'],
      });
      const rec = await h.settle([match]);
      expect(rec.err).toBeNull();
      expect(rec.result?.matches?.[0]?.err?.code).toBe('InvalidProof');
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(leaves);
      expect(await c.getMemos({ from: 0, to: 100 })).toEqual(memos);
      expect(
        await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier, change.nullifier] }),
      ).toEqual([
        { state: 'locked', locked_until_slot: slot + 100 },
        { state: 'locked', locked_until_slot: slot + 100 },
        { state: 'free' },
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
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(6);
    });

    it('refuses non-TEE signers, unknown markets, duplicate match indices and malformed matches as a whole', async () => {
      const { bid, ask } = await h.lockedPair();
      const m = await h.matchArgs(bid, ask);
      expect((await h.settle([m], { by: alice })).err?.code).toBe('Unauthorized');
      expect((await h.settle([m], { market_id: alice.address })).err?.code).toBe('UnknownMarket');
      expect((await h.settle([m, m])).err?.code).toBe('InvalidArgs');
      const inputs = m.inputs as Record<string, unknown>[];
      const malformed: Record<string, unknown>[] = [
        { ...m, inputs: [inputs[0]] },
        { ...m, inputs: [...inputs, inputs[0]] },
        { ...m, outputs: [] },
        { ...m, outputs: [{ ...(m.outputs as Record<string, unknown>[])[0], slot: 6 }] },
        { ...m, outputs: [{ ...(m.outputs as Record<string, unknown>[])[0], commitment: '00'.repeat(32) }] },
        // What settlements used to carry is refused, not ignored.
        { ...m, outputs: [{ ...(m.outputs as Record<string, unknown>[])[0], amount: '10' }] },
        { ...m, outputs: [{ ...(m.outputs as Record<string, unknown>[])[0], mint: SOL }] },
        {
          ...m,
          outputs: [{ ...(m.outputs as Record<string, unknown>[])[0], opening_hash: bid.openingHash }],
        },
        { ...m, inputs: [{ ...inputs[0], note_commitment: bid.commitment }, inputs[1]] },
        { ...m, inputs: [bid.nullifier, ask.nullifier] },
        { ...m, proof: undefined },
      ];
      for (const bad of malformed) expect((await h.settle([bad])).err?.code).toBe('InvalidArgs');
      expect((await c.getNoteStatus({ nullifier: bid.nullifier })).state).toBe('locked');
      expect((await h.settle([m])).result?.matches?.[0]?.ok).toBe(true);
    });

    it('refuses, per match and before its proof: relocks off the change slots, unordered slots, repeated nullifiers or commitments, expired locks', async () => {
      const { bid, ask } = await h.lockedPair({ untilOffset: 30 });
      const slot = await c.getSlot();
      const t0 = slotNote(0, 10n);
      const t3 = slotNote(3, 1_000n);
      const relock = (s: number, nullifier?: string) =>
        outputOf(s, slotNote(s, 1n), { until_slot: slot + 10, ...(nullifier ? { nullifier } : {}) });
      const cases: [string, Record<string, unknown>[]][] = [
        ['InvalidArgs', [outputOf(0, t0, { until_slot: slot + 10 }), outputOf(3, t3)]],
        ['InvalidArgs', [outputOf(0, t0), relock(2)]],
        ['InvalidArgs', [outputOf(0, t0), outputOf(3, t3), relock(5)]],
        ['InvalidArgs', [outputOf(3, t3), outputOf(0, t0)]],
        ['InvalidArgs', [outputOf(0, t0), outputOf(0, slotNote(0, 1n))]],
        // A relock under an input's own nullifier.
        ['InvalidArgs', [outputOf(0, t0), relock(1, bid.nullifier)]],
        ['InvalidArgs', [outputOf(0, t0), relock(1), relock(4, ask.nullifier)]],
        ['DuplicateCommitment', [outputOf(0, t0), outputOf(3, t0)]],
        ['DuplicateCommitment', [outputOf(0, bid)]],
        ['BadLockExpiry', [outputOf(0, t0), outputOf(1, slotNote(1, 1n), { until_slot: slot })]],
        ['BadTreeId', [{ ...outputOf(0, t0), tree_id: 4 }]],
      ];
      const calls = h.verifier.calls.length;
      for (const [code, outputs] of cases) {
        const rec = await h.settle([await h.matchArgs(bid, ask, { outputs })]);
        expect(rec.result?.matches?.[0]?.err?.code, JSON.stringify(outputs)).toBe(code);
      }
      expect(h.verifier.calls.length).toBe(calls);
      // The same nullifier in two matches of a batch (as input or relock) fails both, whatever the order.
      const other = await h.lockedPair({ untilOffset: 30 });
      for (const second of [
        await h.matchArgs(bid, other.ask, { match_idx: 1 }),
        await h.matchArgs(other.bid, other.ask, {
          match_idx: 1,
          outputs: [outputOf(0, slotNote(0, 1n)), relock(4, ask.nullifier)],
        }),
      ]) {
        const rec = await h.settle([await h.matchArgs(bid, ask, { match_idx: 0 }), second]);
        expect(rec.result?.matches?.map((x) => x.err?.code)).toEqual(['InvalidArgs', 'InvalidArgs']);
      }
      expect(h.verifier.calls.length).toBe(calls);
      await c.advanceSlots({ slots: 30 });
      expect((await h.settle([await h.matchArgs(bid, ask)])).result?.matches?.[0]?.err?.code).toBe(
        'LockExpired',
      );
      expect(await c.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier] })).toEqual([
        { state: 'free' },
        { state: 'free' },
      ]);
    }, 30_000);

    it('accepts each input under any root of its shard’s recent window, not an older one', async () => {
      const { bid, ask } = await h.lockedPair();
      const oldRoot = await h.currentRoot();
      for (let i = 0; i < 64; i++) await h.deposit(alice, SOL, 1n + BigInt(i));
      const inWindow = await h.settle([await h.matchArgs(bid, ask, { roots: [oldRoot, oldRoot] })]);
      expect(inWindow.result?.matches?.[0]?.ok).toBe(true);
      const next = await h.lockedPair();
      const stale = oldRoot;
      for (const roots of [[stale], [undefined, stale], ['01'.repeat(32)]] as [string?, string?][]) {
        const rec = await h.settle([await h.matchArgs(next.bid, next.ask, { roots })]);
        expect(rec.result?.matches?.[0]?.err?.code).toBe('UnknownRoot');
      }
      expect((await c.getNoteStatus({ nullifier: next.bid.nullifier })).state).toBe('locked');
    }, 30_000);
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
      expect(h.verifier.calls.at(-1)!.circuit).toBe('valid_spend');
      expect(h.verifier.calls.at(-1)!.inputs[4]).toBe(40n);
      expect(await c.getBalance({ owner: bob.address, mint: SOL })).toBe('40');
      expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('0');
      expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteSpent');
      expect((await h.lock(note)).err?.code).toBe('NoteSpent');
    });

    it('pays out a settlement output, whose amount the ledger never knew, on its VALID_SPEND proof alone', async () => {
      const { bid, ask } = await h.lockedPair({ bid: 1_000n, ask: 10n });
      const out = slotNote(0, 10n);
      expect(
        (
          await h.settle([
            await h.matchArgs(bid, ask, { outputs: [outputOf(0, out), outputOf(3, slotNote(3, 1_000n))] }),
          ])
        ).result?.matches?.[0]?.ok,
      ).toBe(true);
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

    it('refuses a locked note', async () => {
      const note = await h.deposit(alice, SOL, 40n);
      await h.lock(note);
      const args = await withdrawAll(note, alice.address);
      expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteLocked');
    });
  });
}
