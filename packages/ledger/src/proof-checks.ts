/**
 * The proofs an instruction carries and how they are checked, before the instruction runs:
 * VALID_INPUT for locks, VALID_SPEND for withdrawals (public inputs as in DESIGN.md section 3).
 * They are judged at admission, off the writer (see admission.ts).
 */
import { mintToFields, parseAddress } from '@nightjar/protocol';
import type { Args } from './program/args.js';

export type Circuit = 'valid_input' | 'valid_spend';

/** Checks Groth16 proofs for the vault program. */
export interface LedgerProofVerifier {
  verify(circuit: Circuit, proof: Uint8Array, publicInputs: bigint[]): Promise<boolean>;
  /**
   * Many proofs of one circuit at once, one verdict per item in order (lock_notes). Optional: a
   * verifier without it has each proof checked with `verify`.
   */
  verifyBatch?(circuit: Circuit, items: { proof: Uint8Array; publicInputs: bigint[] }[]): Promise<boolean[]>;
  /** Releases what the verifier holds (worker threads). */
  close?(): Promise<void>;
}

export interface ProofJob {
  circuit: Circuit;
  proof: Uint8Array;
  publicInputs: bigint[];
}

function validInputJob(a: Args<'lock_note'>): ProofJob {
  const { mintHi, mintLo } = mintToFields(parseAddress(a.mint)!);
  return {
    circuit: 'valid_input',
    proof: Buffer.from(a.proof, 'hex'),
    publicInputs: [
      BigInt('0x' + a.merkle_root),
      BigInt('0x' + a.note_commitment),
      BigInt('0x' + a.nullifier),
      mintLo,
      mintHi,
    ],
  };
}

function validSpendJob(a: Args<'withdraw'>): ProofJob {
  const { mintHi, mintLo } = mintToFields(parseAddress(a.mint)!);
  const recipient = mintToFields(parseAddress(a.recipient)!);
  return {
    circuit: 'valid_spend',
    proof: Buffer.from(a.proof, 'hex'),
    publicInputs: [
      BigInt('0x' + a.merkle_root),
      BigInt('0x' + a.nullifier),
      mintLo,
      mintHi,
      BigInt(a.amount),
      recipient.mintHi,
      recipient.mintLo,
    ],
  };
}

/** The proofs in an instruction's (already parsed) arguments, in argument order. */
export function proofJobs(name: string, args: unknown): ProofJob[] {
  if (name === 'lock_note') return [validInputJob(args as Args<'lock_note'>)];
  if (name === 'lock_notes') return (args as Args<'lock_notes'>).locks.map(validInputJob);
  if (name === 'withdraw') return [validSpendJob(args as Args<'withdraw'>)];
  return [];
}

/** One verdict per job, in order. */
export async function verifyJobs(verifier: LedgerProofVerifier, jobs: ProofJob[]): Promise<boolean[]> {
  const circuit = jobs[0]?.circuit;
  // Every instruction's proofs are of one circuit, so one batch covers them.
  if (jobs.length > 1 && verifier.verifyBatch && jobs.every((j) => j.circuit === circuit))
    return verifier.verifyBatch(circuit!, jobs);
  return Promise.all(jobs.map((j) => verifier.verify(j.circuit, j.proof, j.publicInputs)));
}
