/**
 * Who may do what with a lock: only the key that locked a note consumes or releases it, even when
 * another key is in the signer set. Part of the shared behaviour suite: in process and over JSON-RPC.
 */
import { describe, expect, it } from 'vitest';
import { COMMITMENT_LAG, type DevLedgerClient } from '../src/index.js';
import { Actor, makeNote, outputOf, SOL, type Harness } from './harness.js';

export function signerTests(get: () => { h: Harness; c: DevLedgerClient; alice: Actor }): void {
  describe('lock ownership', () => {
    it('a second registered TEE key can neither consume nor release a lock it did not make', async () => {
      const { h, c, alice } = get();
      const second = new Actor();
      await h.admin.send(c, 'set_tee_keys', { keys: [h.tee.address, second.address] });
      await c.advanceSlots({ slots: COMMITMENT_LAG.finalized });
      const note = await h.deposit(alice, SOL, 12n);
      expect((await h.lock(note, 20)).err).toBeNull();
      const settle = (by: Actor, batch: string) =>
        by.send(c, 'settle_batch', {
          batch_id: batch,
          matches: [
            { match_idx: 0, inputs: [note.nullifier], outputs: [outputOf(makeNote(SOL, 12n))], memos: [] },
          ],
        });
      expect((await settle(second, '1')).result?.matches?.[0]?.err?.code).toBe('Unauthorized');
      expect(await c.getNoteStatus({ nullifier: note.nullifier })).toMatchObject({ state: 'locked' });
      await c.advanceSlots({ slots: 20 });
      expect((await second.send(c, 'release_lock', { nullifier: note.nullifier })).err?.code).toBe(
        'Unauthorized',
      );
      // The locker still can: relock it (expired locks are replaced) and settle it.
      expect((await h.lock(note, 20)).err).toBeNull();
      expect((await settle(h.tee, '2')).result?.matches?.[0]?.ok).toBe(true);
    });
  });
}
