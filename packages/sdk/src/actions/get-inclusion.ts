import { inclusionCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';

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
