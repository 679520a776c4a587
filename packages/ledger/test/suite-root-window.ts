/**
 * `getRootWindow`: a shard's recent-root window (current root and the previous 64, one step per
 * append instruction), at every commitment level. Part of the shared behaviour suite: in process
 * and over JSON-RPC.
 */
import { describe, expect, it } from 'vitest';
import { COMMITMENT_LAG } from '../src/index.js';
import { outputOf, slotNote, SOL, type SuiteContext } from './harness.js';

export function rootWindowTests(get: () => SuiteContext): void {
  describe('getRootWindow', () => {
    it('lists the shard’s roots one per append instruction, oldest first, at most 65, at every level', async () => {
      const { h, c, alice } = get();
      const root = async () => (await c.getTreeRoot({ tree_id: 2 })).merkle_root;
      const steps = [await root()]; // the empty shard's root
      expect(await c.getRootWindow({ tree_id: 2 })).toEqual({ tree_id: 2, roots: steps });
      await h.deposit(alice, SOL, 6n, 2);
      steps.push(await root());
      for (let i = 0; i < 63; i++) {
        await h.deposit(alice, SOL, 1n + BigInt(i), 2);
        steps.push(await root());
      }
      // One settlement appending two leaves to the shard is one step (its inputs live in shard 0).
      const { bid, ask } = await h.lockedPair();
      const outputs = [outputOf(0, slotNote(0, 4n, 2)), outputOf(3, slotNote(3, 2n, 2))];
      expect((await h.settle([await h.matchArgs(bid, ask, { outputs })])).result?.matches?.[0]?.ok).toBe(
        true,
      );
      steps.push(await root());
      await h.deposit(alice, SOL, 99n, 2);
      steps.push(await root());
      expect((await c.getTreeRoot({ tree_id: 2 })).leaf_count).toBe(67);
      // 67 steps (the empty root included): the window keeps the newest 65.
      const window = steps.slice(-65);
      expect((await c.getRootWindow({ tree_id: 2 })).roots).toEqual(window);
      // Once newer leaves land, the finalized window is rebuilt from the stored leaves: the same.
      await c.advanceSlots({ slots: 1 });
      await h.deposit(alice, SOL, 7n, 2);
      await c.advanceSlots({ slots: COMMITMENT_LAG.finalized - 1 });
      expect((await c.getRootWindow({ tree_id: 2, commitment: 'finalized' })).roots).toEqual(window);
    }, 30_000);

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
