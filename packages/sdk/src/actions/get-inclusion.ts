import { inclusionCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { NotFoundError } from '../errors.js';
import { sleep } from '../utils/backoff.js';

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
 * input proof is built against).
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
 * Waits until the engine's tree has the note (a fresh deposit or settlement output is spendable
 * from then on: about 31 slots after it lands). Resolves false when `timeoutMs` passes first; any
 * error but "not in the tree yet" is thrown.
 *
 * @example
 * if (!(await waitForInclusion(client, { commitment, timeoutMs: 30_000 }))) console.log('not final yet');
 */
export async function waitForInclusion(client: Client, params: WaitForInclusionParameters): Promise<boolean> {
  const deadline = params.timeoutMs === undefined ? Infinity : Date.now() + params.timeoutMs;
  const interval = params.intervalMs ?? Math.min(500, client.slotMs);
  for (;;) {
    try {
      await getInclusion(client, params);
      return true;
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      if (Date.now() > deadline) return false;
      await sleep(interval);
    }
  }
}
