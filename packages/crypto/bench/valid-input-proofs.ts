/**
 * Real VALID_INPUT v2 proofs for the benchmarks, made with the committed dev artifacts (and the time
 * each took to prove). Shared by the verification and the Groth16 breakdown sections.
 */
import { randomBytes } from 'node:crypto';
import { MerkleTree } from '../src/merkle/index.js';
import { randomFieldElement } from '../src/field.js';
import { deriveNote, ownerCommitment } from '../src/notes.js';
import type { OrderTerms } from '../src/order-digest.js';
import { bytesToSnarkjsProof, type SnarkjsProof } from '../src/groth16/proof-format.js';
import { bigIntsToPublicSignals } from '../src/groth16/public-inputs.js';
import { type SnarkjsVerificationKey } from '../src/groth16/verification-key.js';

/** A verification key with valid proofs to benchmark. */
export interface VerificationBenchSet {
  label: string;
  vk: SnarkjsVerificationKey;
  proofs: ReadonlyArray<{ proof: SnarkjsProof; publicSignals: string[] }>;
}

interface CircuitsModule {
  loadVerificationKey(c: 'valid_input_v2'): Promise<SnarkjsVerificationKey>;
  NoteProver: new (o?: { workers?: number }) => {
    start(): Promise<void>;
    proveValidInputV2(r: {
      mint: Uint8Array;
      amount: bigint;
      spendingKey: bigint;
      noteInnerHash: bigint;
      path: object;
      order: OrderTerms;
    }): Promise<{ proof: Uint8Array; publicInputs: bigint[] }>;
    close(): Promise<void>;
  };
}

/**
 * Proves `count` VALID_INPUT v2 proofs (each for its own order) over notes in a real depth-20 tree with the committed dev
 * artifacts, timing each. @nightjar/circuits is loaded at run time: circuits depends on crypto, so
 * the crypto package itself must not depend on it.
 */
export async function validInputSet(
  count: number,
): Promise<{ set: VerificationBenchSet; provingMs: number[] }> {
  const specifier: string = '@nightjar/circuits';
  const circuits = (await import(specifier)) as CircuitsModule;
  const vk = await circuits.loadVerificationKey('valid_input_v2');
  const mint = randomBytes(32);
  const tree = new MerkleTree();
  const notes = Array.from({ length: count }, (_, i) => {
    const note = {
      mint,
      amount: BigInt(1000 + i),
      spendingKey: randomFieldElement(),
      noteInnerHash: randomFieldElement(),
    };
    const { noteCommitment } = deriveNote({
      mint,
      amount: note.amount,
      ownerCommitment: ownerCommitment(note.spendingKey),
      noteInnerHash: note.noteInnerHash,
    });
    tree.append(noteCommitment);
    return note;
  });
  const prover = new circuits.NoteProver({ workers: 1 });
  await prover.start();
  const proofs: VerificationBenchSet['proofs'][number][] = [];
  const provingMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const order: OrderTerms = {
      marketLo: 1n,
      marketHi: 2n,
      side: 0,
      amount: 1000n,
      priceLimit: 150n,
      minFillSize: 1n,
      expirySlot: 1_000_000n,
      orderId: BigInt(i + 1),
    };
    const r = await prover.proveValidInputV2({ ...notes[i]!, path: tree.proof(i), order });
    provingMs.push(performance.now() - t0);
    proofs.push({
      proof: bytesToSnarkjsProof(r.proof),
      publicSignals: bigIntsToPublicSignals(r.publicInputs),
    });
  }
  await prover.close();
  return {
    set: { label: 'VALID_INPUT v2 (committed dev artifacts, 3 public inputs)', vk, proofs },
    provingMs,
  };
}
