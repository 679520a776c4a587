/**
 * The vault program's proof checks on the crypto package's worker-pool Groth16 verifier: one
 * adaptive batcher (and its worker threads) per kind of proof, so no pairing ever runs on the
 * ledger's thread, and the public's withdrawals and join-splits never queue in front of the TEE's
 * locks and settlements (admitted only from registered TEE keys). The two lock keys (VALID_INPUT
 * v2, VALID_LOCK) share one batcher: a lock proof is of either.
 */
import {
  AdaptiveBatcher,
  ProofFormatError,
  PublicInputError,
  VerifierCapacityError,
  type SnarkjsVerificationKey,
  type VerificationKey,
} from '@nightjar/crypto';
import { RPC_ERRORS, RpcError } from '@nightjar/protocol/ledger-client';
import type { Circuit, LedgerProofVerifier } from './program/proof-checks.js';

type Key = VerificationKey | SnarkjsVerificationKey;

/**
 * The keys the ledger verifies with (a verifier's key set from loadCircuitKeys fits: keys it does
 * not use are ignored). Without a key the proofs of its circuit cannot be checked and the
 * instructions carrying them are refused (-32005): `valid_spend_v2` for `withdraw` (VALID_SPEND v1,
 * without a change output, is no longer accepted), `valid_input_v2` and `valid_lock` for
 * `lock_note`/`lock_notes`, `valid_match_v2` for `settle_batch`, `valid_join_split_v2` for
 * `join_split`.
 */
export interface LedgerVerificationKeys {
  valid_spend_v2?: Key;
  valid_input_v2?: Key;
  valid_lock?: Key;
  valid_match_v2?: Key;
  valid_join_split_v2?: Key;
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
  const start = (keys: Partial<Record<Circuit, Key>>) =>
    AdaptiveBatcher.create({
      keys,
      size: options.workersPerCircuit ?? 1,
      ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
    });
  const batchers: Partial<Record<Circuit, AdaptiveBatcher>> = {};
  if (keys.valid_spend_v2) batchers.valid_spend_v2 = await start({ valid_spend_v2: keys.valid_spend_v2 });
  const lockKeys = {
    ...(keys.valid_input_v2 ? { valid_input_v2: keys.valid_input_v2 } : {}),
    ...(keys.valid_lock ? { valid_lock: keys.valid_lock } : {}),
  };
  if (Object.keys(lockKeys).length > 0) {
    const locks = await start(lockKeys);
    for (const circuit of Object.keys(lockKeys) as Circuit[]) batchers[circuit] = locks;
  }
  if (keys.valid_match_v2) batchers.valid_match_v2 = await start({ valid_match_v2: keys.valid_match_v2 });
  if (keys.valid_join_split_v2)
    batchers.valid_join_split_v2 = await start({ valid_join_split_v2: keys.valid_join_split_v2 });
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
      await Promise.all([...new Set(Object.values(batchers))].map((b) => b.close()));
    },
  };
}
