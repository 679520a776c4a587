/**
 * ProverOptions.backend: a pool can be told which Groth16 prover its workers use (the benchmark
 * compares snarkjs and the native addon side by side in one process, which the process-wide
 * NIGHTJAR_PROVER switch cannot do), and reports the one its workers actually use.
 */
import {
  MerkleTree,
  bytesToSnarkjsProof,
  deriveNote,
  ownerCommitment,
  type OrderTerms,
} from '@nightjar/crypto';
import { afterAll, describe, expect, it } from 'vitest';

import { loadVerificationKey } from '../src/artifacts.js';
import { selectProverBackend } from '../src/native-prover.js';
import { NoteProver } from '../src/prover.js';
import { snarkjs, terminateCurve } from './helpers.js';

const NOTE = {
  mint: Uint8Array.from({ length: 32 }, (_, i) => 0x30 + i),
  amount: 42_000n,
  spendingKey: 0x3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3cn,
  noteInnerHash: 0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5an,
};
const ORDER: OrderTerms = {
  marketLo: 1n,
  marketHi: 2n,
  side: 1,
  amount: 500n,
  priceLimit: 90n,
  minFillSize: 1n,
  expirySlot: 7_000n,
  orderId: 0x42n,
};

const tree = new MerkleTree();
tree.append(9n);
const leaf = tree.append(
  deriveNote({ ...NOTE, ownerCommitment: ownerCommitment(NOTE.spendingKey) }).noteCommitment,
);
const path = tree.proof(leaf);

const provers: NoteProver[] = [];
function prover(options: ConstructorParameters<typeof NoteProver>[0]): NoteProver {
  const p = new NoteProver(options);
  provers.push(p);
  return p;
}

afterAll(async () => {
  await Promise.all(provers.map((p) => p.close()));
  await terminateCurve();
});

async function provesVerifiably(p: NoteProver): Promise<void> {
  const r = await p.proveValidInputV2({ ...NOTE, path, merkleRoot: tree.root, order: ORDER });
  const ok = await snarkjs.groth16.verify(
    await loadVerificationKey('valid_input_v2'),
    r.publicInputs.map(String),
    bytesToSnarkjsProof(r.proof),
  );
  expect(ok).toBe(true);
}

describe('NoteProver backend option', () => {
  it('backend "snarkjs": the workers prove with snarkjs even though the addon is built', async () => {
    const p = prover({ backend: 'snarkjs', singleThread: true });
    expect(p.backend).toBeUndefined();
    await p.start();
    expect(p.backend).toBe('snarkjs');
    await provesVerifiably(p);
  }, 120_000);

  it('backend "native" with two single-threaded workers: both workers prove with the addon', async () => {
    const p = prover({ backend: 'native', workers: 2, singleThread: true });
    await p.start();
    expect(p.backend).toBe('native');
    // Two proofs at once: one on each worker.
    await Promise.all([provesVerifiably(p), provesVerifiably(p)]);
  }, 120_000);

  it('no backend: the one selectProverBackend() picks (unchanged default)', async () => {
    const p = prover({});
    await p.start();
    expect(p.backend).toBe(selectProverBackend());
  }, 120_000);

  it('refuses an unknown backend name', () => {
    expect(() => new NoteProver({ backend: 'gpu' as never })).toThrow(RangeError);
  });
});
