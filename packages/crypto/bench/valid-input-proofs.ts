/**
 * Real VALID_INPUT proofs for the benchmarks, made with the committed dev artifacts (and the time
 * each took to prove). Shared by the verification and the Groth16 breakdown sections.
 */
import { randomBytes } from 'node:crypto';
import { MerkleTree } from '../src/merkle/index.js';
import { randomFieldElement } from '../src/field.js';
import { deriveNote, ownerCommitment } from '../src/notes.js';
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
  loadVerificationKey(c: 'valid_input'): Promise<SnarkjsVerificationKey>;
  NoteProver: new (o?: { workers?: number }) => {
    start(): Promise<void>;
    proveValidInput(r: {
      note: object;
      path: object;
    }): Promise<{ proof: Uint8Array; publicInputs: bigint[] }>;
    close(): Promise<void>;
  };
}

/**
 * Proves `count` VALID_INPUT proofs over notes in a real depth-20 tree with the committed dev
 * artifacts, timing each. @nightjar/circuits is loaded at run time: circuits depends on crypto, so
 * the crypto package itself must not depend on it.
 */
export async function validInputSet(
  count: number,
): Promise<{ set: VerificationBenchSet; provingMs: number[] }> {
  const specifier: string = '@nightjar/circuits';
  const circuits = (await import(specifier)) as CircuitsModule;
  const vk = await circuits.loadVerificationKey('valid_input');
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
    const r = await prover.proveValidInput({ note: notes[i]!, path: tree.proof(i) });
    provingMs.push(performance.now() - t0);
    proofs.push({
      proof: bytesToSnarkjsProof(r.proof),
      publicSignals: bigIntsToPublicSignals(r.publicInputs),
    });
  }
  await prover.close();
  return { set: { label: 'VALID_INPUT (committed dev artifacts, 5 public inputs)', vk, proofs }, provingMs };
}
