import type { Client } from '../client.js';
import { fetchInclusion } from '../core/venue-reads.js';
import type { NightjarError } from '../core/errors/index.js';

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
  return fetchInclusion(client, params.commitment, params.treeId);
}

/** What `getInclusion` throws: the SDK's typed errors (NOT_FOUND (1301) for a commitment not in the tree). */
export type GetInclusionErrorType = NightjarError;
