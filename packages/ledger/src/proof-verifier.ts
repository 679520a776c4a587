/** The vault program's proof checks on the crypto package's Groth16 verifier (mcl, in this thread). */
import { Groth16Verifier, type SnarkjsVerificationKey, type VerificationKey } from '@nightjar/crypto';
import type { Circuit, LedgerProofVerifier } from './proof-checks.js';

export type LedgerVerificationKeys = Record<Circuit, VerificationKey | SnarkjsVerificationKey>;

export async function createGroth16Verifier(keys: LedgerVerificationKeys): Promise<LedgerProofVerifier> {
  const verifiers = {
    valid_input: await Groth16Verifier.create(keys.valid_input),
    valid_spend: await Groth16Verifier.create(keys.valid_spend),
  };
  const verifyOne = (circuit: Circuit, proof: Uint8Array, publicInputs: bigint[]): boolean => {
    try {
      return verifiers[circuit].verify(proof, publicInputs);
    } catch {
      return false; // a malformed proof is an invalid proof, never a crash
    }
  };
  return {
    async verify(circuit, proof, publicInputs) {
      return verifyOne(circuit, proof, publicInputs);
    },
    async verifyBatch(circuit, items) {
      try {
        // One random linear combination; bisects to find exactly the invalid ones.
        return verifiers[circuit].verifyBatch(items);
      } catch {
        // A shape error in one item throws for the whole batch: judge each on its own instead.
        return items.map((i) => verifyOne(circuit, i.proof, i.publicInputs));
      }
    },
  };
}
