/**
 * VALID_MATCH proving time through the real prover (one worker, snarkjs on both cores):
 *
 *   npx tsx packages/circuits/bench/match-proving.ts [runs]
 *
 * Prints the cold proof (artifact transfer to the worker included) and each warm proof.
 */
import { MerkleTree, deriveNote, ownerCommitment } from '@nightjar/crypto';

import { NoteProver } from '../src/prover.js';
import type { ValidMatchParams } from '../src/match-witness.js';

const BASE = Uint8Array.from({ length: 32 }, (_, i) => 0x10 + i);
const QUOTE = Uint8Array.from({ length: 32 }, (_, i) => 0xa0 + i);
const bidOwner = ownerCommitment(0x1234n);
const askOwner = ownerCommitment(0x5678n);
const bidNote = deriveNote({
  mint: QUOTE,
  amount: 10_000n,
  ownerCommitment: bidOwner,
  noteInnerHash: 0x9999n,
});
const askNote = deriveNote({ mint: BASE, amount: 5_000n, ownerCommitment: askOwner, noteInnerHash: 0x7777n });
const tree = new MerkleTree();
tree.append(bidNote.noteCommitment);
tree.append(askNote.noteCommitment);

const params: ValidMatchParams = {
  baseMint: BASE,
  quoteMint: QUOTE,
  priceScale: 1_000_000n,
  feeBps: 25n,
  feeOwnerCommitment: ownerCommitment(0xfeen),
  quantity: 3_000n,
  price: 2_500_000n,
  bid: {
    amount: 10_000n,
    ownerCommitment: bidOwner,
    noteInnerHash: 0x9999n,
    merkleRoot: tree.root,
    path: { siblings: tree.proof(0).siblings, leafIndex: 0 },
    relock: true,
  },
  ask: {
    amount: 5_000n,
    ownerCommitment: askOwner,
    noteInnerHash: 0x7777n,
    merkleRoot: tree.root,
    path: { siblings: tree.proof(1).siblings, leafIndex: 1 },
    relock: true,
  },
};

const runs = Number(process.argv[2] ?? 3);
const prover = new NoteProver({ workers: 1 });
await prover.start();
let t = performance.now();
await prover.proveValidMatch(params);
console.log(`cold: ${(performance.now() - t).toFixed(0)} ms`);
for (let i = 0; i < runs; i++) {
  t = performance.now();
  await prover.proveValidMatch(params);
  console.log(`warm ${i + 1}: ${(performance.now() - t).toFixed(0)} ms`);
}
await prover.close();
