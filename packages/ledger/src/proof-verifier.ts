/** The vault program's proof checks on the crypto package's Groth16 verifier (mcl, in this thread). */
import { Groth16Verifier, type SnarkjsVerificationKey, type VerificationKey } from '@nightjar/crypto';
import type { LedgerProofVerifier } from './ledger.js';

export type LedgerVerificationKeys = Record<
  'valid_input' | 'valid_spend',
  VerificationKey | SnarkjsVerificationKey
>;

export async function createGroth16Verifier(keys: LedgerVerificationKeys): Promise<LedgerProofVerifier> {
  const verifiers = {
    valid_input: await Groth16Verifier.create(keys.valid_input),
    valid_spend: await Groth16Verifier.create(keys.valid_spend),
  };
  return {
    async verify(circuit, proof, publicInputs) {
      try {
        return verifiers[circuit].verify(proof, publicInputs);
      } catch {
        return false; // a malformed proof is an invalid proof, never a crash
      }
    },
  };
}
