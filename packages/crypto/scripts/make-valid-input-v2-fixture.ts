/**
 * DEV-ONLY: writes test/fixtures/groth16/valid-input-v2.json, one real VALID_INPUT v2 proof (the
 * committed dev key, circuits/artifacts) for a note at leaf 3 of shard 0 and one order, with
 * everything the order-check tests recompute its public inputs from. Run from the repo root:
 *
 *   npx tsx --conditions=nightjar-source packages/crypto/scripts/make-valid-input-v2-fixture.ts
 *
 * The circuits package is imported by path: crypto does not depend on it (it depends on crypto).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesToHex } from '@nightjar/protocol';
import { NoteProver } from '../../circuits/src/index.js';
import { TreeShard, noteCommitment, openingHash, ownerCommitment, type OrderTerms } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const mint = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const mintHi = BigInt('0x' + bytesToHex(mint.subarray(0, 16)));
const mintLo = BigInt('0x' + bytesToHex(mint.subarray(16)));
const spendingKey = 123456789n;
const inner = 987654321n;
const amount = 150_000n;
const order: OrderTerms = {
  marketLo: 0x1111n,
  marketHi: 0x2222n,
  side: 0,
  amount: 1000n,
  priceLimit: 150n,
  minFillSize: 10n,
  expirySlot: 5000n,
  orderId: 0x0123456789abcdef0123456789abcdefn,
};
const owner = ownerCommitment(spendingKey);
const commitment = noteCommitment({ mintLo, mintHi, amount, openingHash: openingHash(owner, inner) });
const tree = new TreeShard(0);
tree.appendBatch([11n, 22n, 33n, commitment, 55n]);
const prover = new NoteProver();
try {
  const r = await prover.proveValidInputV2({
    mint,
    amount,
    spendingKey,
    noteInnerHash: inner,
    path: tree.proof(3),
    merkleRoot: tree.root,
    order,
  });
  const str = (v: bigint) => v.toString();
  const fixture = {
    note: {
      owner: str(owner),
      inner: str(inner),
      mint: bytesToHex(mint),
      amount: str(amount),
      commitment: str(commitment),
    },
    order: Object.fromEntries(Object.entries(order).map(([k, v]) => [k, typeof v === 'bigint' ? str(v) : v])),
    merkleRoot: str(tree.root),
    proof: bytesToHex(r.proof),
    publicInputs: r.publicInputs.map(str),
  };
  writeFileSync(
    join(here, '../test/fixtures/groth16/valid-input-v2.json'),
    JSON.stringify(fixture, null, 2) + '\n',
  );
} finally {
  await prover.close();
}
