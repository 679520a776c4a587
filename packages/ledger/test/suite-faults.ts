/** Fault injection (dev control): reject, drop, latency, outage, divergence. Part of the shared suite. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../src/index.js';
import { SOL, type SuiteContext } from './harness.js';
import { waitFor } from './wait.js';

export function faultTests(get: () => SuiteContext): void {
  let { h, c, alice } = {} as SuiteContext;
  const refresh = () => ({ h, c, alice } = get());

  describe('fault injection', () => {
    beforeEach(refresh);
    it('reject: the transaction never lands', async () => {
      await c.setFaults({ rejectRate: 1 });
      const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
      await expect(c.sendTransaction({ transaction: tx })).rejects.toMatchObject({ code: -32002 });
      await c.setFaults({ rejectRate: 0 });
      expect(await c.getTransaction({ signature: tx.signature })).toBeNull();
    });

    it('drop: the transaction lands but the sender hears an error', async () => {
      await c.setFaults({ dropRate: 1 });
      const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
      await expect(c.sendTransaction({ transaction: tx })).rejects.toMatchObject({ code: -32004 });
      await c.setFaults({ dropRate: 0 });
      expect(await c.getTransaction({ signature: tx.signature })).not.toBeNull();
    });

    it('latency: the transaction lands only after the added slots', async () => {
      await c.setFaults({ latencySlots: 3 });
      const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
      await c.sendTransaction({ transaction: tx });
      await c.advanceSlots({ slots: 2 });
      expect(await c.getSignatureStatuses({ signatures: [tx.signature] })).toEqual([null]);
      await c.advanceSlots({ slots: 1 });
      expect((await c.getSignatureStatuses({ signatures: [tx.signature] }))[0]?.slot).toBe(await c.getSlot());
    });

    it('outage: every call fails until it is lifted', async () => {
      await c.setFaults({ outage: true });
      await expect(c.getSlot()).rejects.toMatchObject({ code: -32005 });
      await expect(c.getMarkets()).rejects.toMatchObject({ code: -32005 });
      await c.setFaults({ outage: false });
      expect(await c.getSlot()).toBeGreaterThan(0);
    });

    it('divergence: leaf events on the shard stop matching the chain', async () => {
      await c.setFaults({ divergedShards: [3] });
      const events: LedgerEvent[] = [];
      const off = c.subscribe((e) => e.type === 'leaf' && events.push(e));
      const note = await h.deposit(alice, SOL, 3n, 3);
      await waitFor(() => events.length === 1);
      off();
      expect(events[0]).toMatchObject({ tree_id: 3, leaf_index: 0 });
      expect(events[0]!.type === 'leaf' && events[0]!.commitment).not.toBe(note.commitment);
      expect((await c.getLeaves({ tree_id: 3, from: 0, to: 1 })).leaves[0]!.value).toBe(note.commitment);
    });

    it('refuses nonsense fault settings', async () => {
      await expect(c.setFaults({ rejectRate: 2 })).rejects.toMatchObject({ code: -32602 });
      await expect(c.setFaults({ latencySlots: -1 })).rejects.toMatchObject({ code: -32602 });
    });
  });
}
