/**
 * The vault program's proof checks on the crypto package's worker-pool Groth16 verifier: one
 * adaptive batcher (and its worker threads) per circuit, so no pairing ever runs on the ledger's
 * thread, and the public's withdrawals (VALID_SPEND) never queue in front of the TEE's locks
 * (VALID_INPUT, admitted only from registered TEE keys).
 */
import {
  AdaptiveBatcher,
  ProofFormatError,
  PublicInputError,
  VerifierCapacityError,
  type SnarkjsVerificationKey,
  type VerificationKey,
} from '@nightjar/crypto';
import { RPC_ERRORS, RpcError } from './errors.js';
import type { Circuit, LedgerProofVerifier } from './proof-checks.js';

export type LedgerVerificationKeys = Record<Circuit, VerificationKey | SnarkjsVerificationKey>;

export interface Groth16VerifierOptions {
  /** Worker threads per circuit (default 1). */
  workersPerCircuit?: number;
  /** Proofs waiting per circuit before new ones are refused with -32007 (default 4096). */
  maxQueue?: number;
}

export async function createGroth16Verifier(
  keys: LedgerVerificationKeys,
  options: Groth16VerifierOptions = {},
): Promise<LedgerProofVerifier & { close(): Promise<void> }> {
  const start = (circuit: Circuit) =>
    AdaptiveBatcher.create({
      keys: { [circuit]: keys[circuit] },
      size: options.workersPerCircuit ?? 1,
      ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
    });
  const batchers: Record<Circuit, AdaptiveBatcher> = {
    valid_input: await start('valid_input'),
    valid_spend: await start('valid_spend'),
  };
  const verify = async (circuit: Circuit, proof: Uint8Array, publicInputs: bigint[]) => {
    try {
      return await batchers[circuit].verify(proof, publicInputs, circuit);
    } catch (err) {
      // A malformed proof is an invalid proof, never a crash.
      if (err instanceof ProofFormatError || err instanceof PublicInputError) return false;
      if (err instanceof VerifierCapacityError)
        throw new RpcError(RPC_ERRORS.busy, 'the proof verifier is at capacity; retry shortly');
      throw new RpcError(RPC_ERRORS.nodeUnavailable, 'proof verification is unavailable; retry shortly');
    }
  };
  return {
    verify,
    // The batcher groups proofs waiting together (random linear combination, bisected on failure).
    verifyBatch: (circuit, items) => Promise.all(items.map((i) => verify(circuit, i.proof, i.publicInputs))),
    async close() {
      await Promise.all([batchers.valid_input.close(), batchers.valid_spend.close()]);
    },
  };
}
