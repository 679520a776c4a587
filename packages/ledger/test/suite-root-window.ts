/**
 * `getRootWindow`: a shard's roots by age (every root of the last ROOT_WINDOW_SLOTS slots, one per
 * append instruction, however many), at every commitment level. Part of the shared behaviour
 * suite: in process and over JSON-RPC.
 */
import { describe, expect, it } from 'vitest';
import { COMMITMENT_LAG, ROOT_WINDOW_SLOTS } from '../src/index.js';
import { outputOf, sixOutputs, slotNote, SOL, type SuiteContext } from './harness.js';

export function rootWindowTests(get: () => SuiteContext): void {
  describe('getRootWindow', () => {
    it('lists every root of the last 181 slots, one per append instruction, oldest first, however many', async () => {
      const { h, c, alice } = get();
      expect(ROOT_WINDOW_SLOTS).toBe(181);
      const root = async () => (await c.getTreeRoot({ tree_id: 2 })).merkle_root;
      const steps = [await root()]; // the empty shard's root
      expect(await c.getRootWindow({ tree_id: 2 })).toEqual({ tree_id: 2, roots: steps });
      // Far more than the old 64 steps, all in one slot: all of them are in the window.
      for (let i = 0; i < 80; i++) {
        await h.deposit(alice, SOL, 1n + BigInt(i), 2);
        steps.push(await root());
      }
      // One settlement appending several leaves to the shard is one step (its inputs live in shard 0).
      const { bid, ask } = await h.lockedPair();
      const outputs = sixOutputs().map((o, k) => (k === 0 || k === 3 ? outputOf(slotNote(k, 2n, 2)) : o));
      expect((await h.settle([await h.matchArgs(bid, ask, { outputs })])).result?.matches?.[0]?.ok).toBe(
        true,
      );
      steps.push(await root());
      expect((await c.getRootWindow({ tree_id: 2 })).roots).toEqual(steps);
      // Roots age out by slot: 100 slots on, one more step; 181 slots after the first ones, only
      // the root the shard had 181 slots ago and the later ones remain.
      await c.advanceSlots({ slots: 100 });
      await h.deposit(alice, SOL, 99n, 2);
      steps.push(await root());
      expect((await c.getRootWindow({ tree_id: 2 })).roots).toEqual(steps);
      await c.advanceSlots({ slots: ROOT_WINDOW_SLOTS - 100 });
      expect((await c.getRootWindow({ tree_id: 2 })).roots).toEqual(steps.slice(-2));
      await c.advanceSlots({ slots: ROOT_WINDOW_SLOTS });
      expect((await c.getRootWindow({ tree_id: 2 })).roots).toEqual(steps.slice(-1));
      // The finalized view is that of 31 slots ago: rebuilt from the stored leaves, the same.
      await h.deposit(alice, SOL, 7n, 2);
      await c.advanceSlots({ slots: COMMITMENT_LAG.finalized - 1 });
      expect((await c.getRootWindow({ tree_id: 2, commitment: 'finalized' })).roots).toEqual(steps.slice(-1));
    }, 60_000);

    it('at confirmed and finalized, the window the shard had then', async () => {
      const { h, c, alice } = get();
      for (let i = 0; i < 3; i++) await h.deposit(alice, SOL, 1n + BigInt(i), 1);
      const then = await c.getRootWindow({ tree_id: 1 });
      await c.advanceSlots({ slots: 1 });
      await h.deposit(alice, SOL, 9n, 1);
      expect((await c.getRootWindow({ tree_id: 1, commitment: 'confirmed' })).roots).toEqual(then.roots);
      await c.advanceSlots({ slots: COMMITMENT_LAG.finalized - 1 });
      const finalized = await c.getRootWindow({ tree_id: 1, commitment: 'finalized' });
      expect(finalized.roots).toEqual(then.roots);
      expect(finalized.roots.at(-1)).toBe(
        (await c.getTreeRoot({ tree_id: 1, commitment: 'finalized' })).merkle_root,
      );
      expect((await c.getRootWindow({ tree_id: 1 })).roots).toHaveLength(then.roots.length + 1);
    });

    it('refuses an unknown shard or commitment', async () => {
      const { c } = get();
      await expect(c.getRootWindow({ tree_id: 99 })).rejects.toMatchObject({ code: -32602 });
      await expect(c.getRootWindow({ tree_id: 0, commitment: 'soon' as 'processed' })).rejects.toMatchObject({
        code: -32602,
      });
    });
  });
}
