import { inclusionCodec, treeRootCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { sleep } from '../utils/backoff.js';
import { syncShard } from './sync-wallet.js';

/** The note whose inclusion path to read. */
export interface GetInclusionParameters {
  commitment: string;
  treeId?: number;
}

/** A depth-20 inclusion path (siblings leaf to root) and the root it proves. */
export interface GetInclusionReturnType {
  leafIndex: number;
  merkleRoot: string;
  siblings: string[];
}

/**
 * `GET /tree/inclusion`: the note's inclusion path in the engine's mirror of the tree (what an
 * order's input proof is built against). It names the note to the venue under the account's
 * credentials: the SDK reads it for an order's own note only (splits, merges and withdrawals build
 * their paths locally).
 *
 * @example
 * const path = await getInclusion(client, { commitment: note.commitment });
 */
export async function getInclusion(
  client: Client,
  params: GetInclusionParameters,
): Promise<GetInclusionReturnType> {
  const r = await client.request(
    `/tree/inclusion?note_commitment=${params.commitment}&tree_id=${params.treeId ?? 0}`,
    { codec: inclusionCodec },
  );
  return { leafIndex: Number(r.leaf_index), merkleRoot: r.merkle_root, siblings: r.siblings };
}

/** How long `waitForInclusion` waits, and how often it looks. */
export interface WaitForInclusionParameters extends GetInclusionParameters {
  /** Longest wait in ms (default: no bound). */
  timeoutMs?: number;
  /** Poll interval in ms (default one slot, at most 500). */
  intervalMs?: number;
}

/**
 * Waits until the engine's tree has the note (a fresh deposit or settlement output can back an
 * order from then on: about 31 slots after it lands). It names the note to no one: it reads the
 * ledger's new leaves (`getLeaves`) to find the note's leaf, then the venue's public leaf count
 * (`GET /tree/root`, unauthenticated). Resolves false when `timeoutMs` passes first.
 *
 * @example
 * if (!(await waitForInclusion(client, { commitment, timeoutMs: 30_000 }))) console.log('not final yet');
 */
export async function waitForInclusion(client: Client, params: WaitForInclusionParameters): Promise<boolean> {
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
