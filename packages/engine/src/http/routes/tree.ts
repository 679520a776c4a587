/**
 * The tree mirror's reads. A diverged shard answers 503 5002 on all three, so nobody builds a
 * proof from a tree that disagrees with the chain. Each is charged as a read before it is parsed
 * (the route table's `charge`): inclusion and leaves to the account's bucket, the root to the address.
 */
import {
  fieldToHex,
  LEAVES_PAGE_CAP,
  parseParam,
  queryParams,
  VenueError,
  type InclusionResponse,
  type LeavesResponse,
  type TreeRootResponse,
} from '@nightjar/protocol';
import type { EngineContext } from '../context.js';
import type { RouteHandlers } from '../register-routes.js';

/** The `tree_id` query parameter's shard (default 0), refused while it disagrees with the chain. */
function shardOf(ctx: EngineContext, raw: unknown) {
  const treeId = raw === undefined ? 0 : parseParam(queryParams.tree_id, raw, 'tree_id');
  const shard = ctx.trees.shard(treeId);
  if (!shard) throw new VenueError(1001, `tree_id: must be below ${ctx.trees.numTrees}`);
  if (ctx.trees.isDiverged(treeId)) throw new VenueError(5002);
  return { treeId, shard };
}

export function treeHandlers(ctx: EngineContext) {
  return {
    treeRoot: async (req): Promise<TreeRootResponse> => {
      const { treeId, shard } = shardOf(ctx, req.query.tree_id);
      return {
        tree_id: treeId,
        merkle_root: fieldToHex(shard.root),
        leaf_count: BigInt(shard.size),
        on_chain_slot: BigInt(ctx.trees.syncedSlot(treeId)),
      };
    },
    treeInclusion: async (req): Promise<InclusionResponse> => {
      const commitment = parseParam(
        queryParams.note_commitment,
        req.query.note_commitment,
        'note_commitment',
      );
      const { shard } = shardOf(ctx, req.query.tree_id);
      const index = shard.indexOf(BigInt('0x' + commitment));
      if (index === undefined) throw new VenueError(1301, 'no such note in this shard');
      const proof = shard.proof(index);
      return {
        note_commitment: commitment,
        leaf_index: BigInt(index),
        merkle_root: fieldToHex(proof.root),
        siblings: proof.siblings.map(fieldToHex),
      };
    },
    treeLeaves: async (req): Promise<LeavesResponse> => {
      const from = parseParam(queryParams.leaf_index, req.query.from, 'from');
      const to = parseParam(queryParams.leaf_index, req.query.to, 'to');
      if (to < from) throw new VenueError(1001, 'to: must not be below from');
      const { shard } = shardOf(ctx, req.query.tree_id);
      // Half-open [from, to), capped to one page and to what exists.
      const end = Math.min(to, from + LEAVES_PAGE_CAP, shard.size);
      const values = from < end ? shard.leaves(from, end) : [];
      return {
        merkle_root: fieldToHex(shard.root),
        leaves: values.map((v, i) => ({ leaf_index: BigInt(from + i), value: fieldToHex(v) })),
      };
    },
  } satisfies Partial<RouteHandlers>;
}
