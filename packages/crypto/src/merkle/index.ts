export { MerkleTree } from './tree.js';
export { TreeShard, ROOT_HISTORY_SIZE, type TreeShardOptions } from './shard.js';
export { ShardedTrees, type ShardedTreesOptions } from './sharded-trees.js';
export { type MerkleProof, computeMerkleRoot, pathIndicesOf, verifyMerkleProof } from './proof.js';
export { type NodeHasher, MAX_TREE_DEPTH, TREE_DEPTH, zeroHashes } from './zeros.js';
