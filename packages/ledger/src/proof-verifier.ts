/**
 * The vault program's proof checks on the crypto package's worker-pool Groth16 verifier: one
 * adaptive batcher (and its worker threads) per circuit, so no pairing ever runs on the ledger's
 * thread, and the public's withdrawals (VALID_SPEND) never queue in front of the TEE's
 * settlements (VALID_MATCH, admitted only from registered TEE keys).
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

type Key = VerificationKey | SnarkjsVerificationKey;

/**
 * The keys the ledger verifies with. Without `valid_match` it cannot check a settlement and refuses
 * every `settle_batch` (-32005). `valid_input` is accepted so that one key set serves every
 * verifier, but unused: VALID_INPUT is checked by the engine at intake and never reaches the chain.
 */
export interface LedgerVerificationKeys {
  valid_spend: Key;
  valid_match?: Key;
  /** Without it every `join_split` is refused (-32005). */
  valid_join_split?: Key;
  valid_input?: Key;
}

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
  const start = (circuit: Circuit, key: Key) =>
    AdaptiveBatcher.create({
      keys: { [circuit]: key },
      size: options.workersPerCircuit ?? 1,
      ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
    });
  const batchers: Partial<Record<Circuit, AdaptiveBatcher>> = {
    valid_spend: await start('valid_spend', keys.valid_spend),
    ...(keys.valid_match ? { valid_match: await start('valid_match', keys.valid_match) } : {}),
    ...(keys.valid_join_split
      ? { valid_join_split: await start('valid_join_split', keys.valid_join_split) }
      : {}),
  };
  const verify = async (circuit: Circuit, proof: Uint8Array, publicInputs: bigint[]) => {
    const batcher = batchers[circuit];
    if (!batcher)
      throw new RpcError(RPC_ERRORS.nodeUnavailable, `this ledger has no ${circuit} verification key`);
    try {
      return await batcher.verify(proof, publicInputs, circuit);
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
      await Promise.all(Object.values(batchers).map((b) => b.close()));
    },
  };
}
