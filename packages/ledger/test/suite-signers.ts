/**
 * Signers against each other: a stranger's junk proofs cost no verification, one signer's flood
 * neither holds the writer nor delays another signer's settlement, admission is bounded per signer,
 * and only the key that locked a note consumes or releases it. Part of the shared behaviour suite:
 * in process and over JSON-RPC.
 */
import { randomFieldElement } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { COMMITMENT_LAG, DEFAULT_ADMISSION_LIMITS } from '../src/index.js';
import { Actor, BAD_PROOF, SOL, USDC, type Harness, type SuiteContext, type TestNote } from './harness.js';
import { waitFor } from './wait.js';

export function signerTests(get: () => SuiteContext): void {
  /** A withdrawal of `note` (or of a made-up nullifier) with a junk proof. */
  const junkWithdraw = async (
    h: Harness,
    note: TestNote | undefined,
    fields: Record<string, unknown> = {},
  ) => ({
    tree_id: 0,
    merkle_root: await h.currentRoot(),
    nullifier: note?.nullifier ?? fieldToHex(randomFieldElement()),
    mint: SOL,
    amount: String(note?.amount ?? 1n),
    recipient: new Actor().address,
    proof: BAD_PROOF,
    ...fields,
  });

  /** Settles `bid` (locked by the TEE key) against a fresh ask that `by` locks. */
  const settleOne = async (h: Harness, by: Actor, bid: TestNote, batch: string) => {
    const ask = await h.deposit(new Actor(), SOL, 10n);
    const lock = await h.lock(ask, 100, by);
    if (lock.err) throw new Error(lock.err.message);
    return h.settle([await h.matchArgs(bid, ask)], { by, batch_id: batch });
  };

  describe('admission', () => {
    it('a stranger’s settlements and refused withdrawals cost no proof verification', async () => {
      const { h, c, alice } = get();
      const spent = await h.deposit(alice, USDC, 4n);
      await h.lock(spent);
      await settleOne(h, h.tee, spent, '1');
      const locked = await h.deposit(alice, SOL, 5n);
      await h.lock(locked);
      const pair = await h.lockedPair();
      const before = h.verifier.calls.length;
      const stranger = new Actor();
      const junk = await h.matchArgs(pair.bid, pair.ask, { proof: BAD_PROOF });
      const many = Array.from({ length: 16 }, (_, i) => ({ ...junk, match_idx: i }));
      expect((await h.settle(many, { by: stranger })).err?.code).toBe('Unauthorized');
      expect((await stranger.send(c, 'lock_note', await h.lockArgs(pair.bid))).err?.code).toBe(
        'Unauthorized',
      );
      const refused: [string, Record<string, unknown>][] = [
        ['UnknownRoot', await junkWithdraw(h, undefined, { merkle_root: '05'.repeat(32) })],
        ['NoteSpent', await junkWithdraw(h, spent)],
        ['NoteLocked', await junkWithdraw(h, locked)],
        ['UnknownMint', await junkWithdraw(h, undefined, { mint: new Actor().address })],
        ['InvalidArgs', await junkWithdraw(h, undefined, { amount: '0' })],
      ];
      for (const [code, args] of refused)
        expect((await stranger.send(c, 'withdraw', args)).err?.code).toBe(code);
      expect(h.verifier.calls.length).toBe(before);
      // A request that passes the cheap checks is still verified, and its junk proof refused
      // before landing: not stored, its nonce not used.
      const nonce = await c.getNonce({ signer: stranger.address });
      const junkTx = stranger.sign({ name: 'withdraw', args: await junkWithdraw(h, undefined) });
      await expect(c.sendTransaction({ transaction: junkTx })).rejects.toMatchObject({
        code: -32002,
        message: expect.stringMatching(/^InvalidProof/),
      });
      expect(h.verifier.calls.length).toBe(before + 1);
      expect(await c.getTransaction({ signature: junkTx.signature })).toBeNull();
      expect(await c.getNonce({ signer: stranger.address })).toBe(nonce);
    });

    it('a flood of slow proofs from one signer does not delay another signer’s settle', async () => {
      const { h, c, alice } = get();
      const bid = await h.deposit(alice, USDC, 30n);
      expect((await h.lock(bid)).err).toBeNull();
      const flooder = new Actor();
      // Withdrawals' proofs are slow; the settlement's own VALID_MATCH check (another batcher) is not.
      const release = h.verifier.hold('valid_spend_v2');
      const flood: string[] = [];
      const landed: Promise<unknown>[] = [];
      const slot = await c.getSlot();
      try {
        const before = h.verifier.calls.length;
        const args = await junkWithdraw(h, undefined);
        for (let i = 0; i < 8; i++) {
          const nullifier = fieldToHex(randomFieldElement());
          const tx = flooder.sign({ name: 'withdraw', args: { ...args, nullifier } });
          flood.push(tx.signature);
          landed.push(c.sendTransaction({ transaction: tx }).catch((e: unknown) => e));
        }
        // The first of the flood is with the (held) verifier.
        await waitFor(() => h.verifier.calls.length > before);
        let settled = false;
        const settle = settleOne(h, h.tee, bid, '2').then((r) => ((settled = true), r));
        await waitFor(() => settled);
        const rec = await settle;
        expect(rec.slot).toBe(slot);
        expect(rec.result?.matches?.[0]?.ok).toBe(true);
        // None of the flood has landed yet; the writer is free: the clock moves on without it.
        expect(await c.getSignatureStatuses({ signatures: flood })).toEqual(flood.map(() => null));
        await c.advanceSlots({ slots: 1 });
      } finally {
        release();
      }
      // Each of the flood is refused for its proof once judged, and none is stored.
      expect((await Promise.all(landed)).map((e) => (e as { code?: number }).code)).toEqual(
        flood.map(() => -32002),
      );
      expect(await c.getSignatureStatuses({ signatures: flood })).toEqual(flood.map(() => null));
    });

    it('one signer’s waiting transactions are bounded (-32007); other signers are still admitted', async () => {
      const { h, c, alice } = get();
      // The flooder has history (a deposit), so only the bound per signer applies to it.
      const flooder = new Actor();
      await h.deposit(flooder, SOL, 1n);
      const note = await h.deposit(alice, SOL, 7n);
      const limit = DEFAULT_ADMISSION_LIMITS.perSigner;
      const args = await junkWithdraw(h, undefined);
      const txs = Array.from({ length: limit + 1 }, () =>
        flooder.sign({ name: 'withdraw', args: { ...args, nullifier: fieldToHex(randomFieldElement()) } }),
      );
      const release = h.verifier.hold();
      let refused = 0;
      const sent = txs.map((tx) =>
        c.sendTransaction({ transaction: tx }).then(
          () => 'accepted',
          (e: { code?: number }) => (e.code === -32007 && refused++, e.code),
        ),
      );
      try {
        // Whichever arrives last finds the lane full (over HTTP, arrival order is not send order).
        await waitFor(() => refused === 1);
        // Another signer is admitted at once, and lands while the flood waits.
        expect((await alice.send(c, 'release_lock', { nullifier: note.nullifier })).err?.code).toBe(
          'NotLocked',
        );
      } finally {
        release();
      }
      // The admitted ones were judged (and refused for their junk proofs); one found no place.
      const outcomes = await Promise.all(sent);
      expect(outcomes.filter((o) => o === -32002)).toHaveLength(limit);
      expect(outcomes.filter((o) => o === -32007)).toHaveLength(1);
    });
  });

  describe('lock ownership', () => {
    it('a second registered TEE key can neither consume nor release a lock it did not make', async () => {
      const { h, c, alice } = get();
      const second = new Actor();
      await h.admin.send(c, 'set_tee_keys', { keys: [h.tee.address, second.address] });
      await c.advanceSlots({ slots: COMMITMENT_LAG.finalized });
      const note = await h.deposit(alice, USDC, 12n);
      expect((await h.lock(note, 20)).err).toBeNull();
      // The ask is the second key's own lock; the bid is not: the match is refused.
      expect((await settleOne(h, second, note, '1')).result?.matches?.[0]?.err?.code).toBe('Unauthorized');
      expect(await c.getNoteStatus({ nullifier: note.nullifier })).toMatchObject({ state: 'locked' });
      await c.advanceSlots({ slots: 20 });
      expect((await second.send(c, 'release_lock', { nullifier: note.nullifier })).err?.code).toBe(
        'Unauthorized',
      );
      // The locker still can: relock it (expired locks are replaced) and settle it.
      expect((await h.lock(note, 20)).err).toBeNull();
      expect((await settleOne(h, h.tee, note, '2')).result?.matches?.[0]?.ok).toBe(true);
    });
  });
}
