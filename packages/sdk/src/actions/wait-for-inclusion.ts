import { treeRootCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { sleep } from '../core/utils/backoff.js';
import { syncShard } from '../notes/ledger-sync.js';
import type { GetInclusionParameters } from './get-inclusion.js';
import type { NightjarError } from '../core/errors/index.js';

/** How long `waitForInclusion` waits, and how often it looks. */
export interface WaitForInclusionParameters extends GetInclusionParameters {
  /** Longest wait in ms (default: no bound). */
  timeoutMs?: number;
  /** Poll interval in ms (default one slot, at most 500). */
  intervalMs?: number;
}

/** Whether the note's leaf is in the venue's tree (false when `timeoutMs` passed first). */
export type WaitForInclusionReturnType = boolean;

/** What `waitForInclusion` throws: the SDK's typed errors (a failed read). */
export type WaitForInclusionErrorType = NightjarError;

/**
 * Waits until the engine's tree has the note (a fresh deposit or settlement output can back an
 * order from then on: about 31 slots after it lands). It names the note to no one: it reads the
 * ledger's new leaves (`getLeaves`) to find the note's leaf, then the venue's public leaf count
 * (`GET /tree/root`, unauthenticated). Resolves false when `timeoutMs` passes first.
 *
 * @example
 * if (!(await waitForInclusion(client, { commitment, timeoutMs: 30_000 }))) console.log('not final yet');
 */
export async function waitForInclusion(
  client: Client,
  params: WaitForInclusionParameters,
): Promise<WaitForInclusionReturnType> {
  const deadline = params.timeoutMs === undefined ? Infinity : Date.now() + params.timeoutMs;
  const interval = params.intervalMs ?? Math.min(500, client.slotMs);
  const treeId = params.treeId ?? client.wallet.notes.get(params.commitment)?.treeId ?? 0;
  for (;;) {
    let leaf = client.wallet.leaves.get(params.commitment);
    if (!leaf) {
      await syncShard(client, treeId);
      leaf = client.wallet.leaves.get(params.commitment);
    }
    if (leaf) {
      const venue = await client.request(`/tree/root?tree_id=${leaf.treeId}`, {
        auth: false,
        codec: treeRootCodec,
      });
      if (leaf.leafIndex < Number(venue.leaf_count)) return true;
    }
    if (Date.now() > deadline) return false;
    await sleep(interval);
  }
}
