/**
 * The order checks run on the calling thread around an injected proof verifier: for tests that
 * stub proof verification, and embedders without worker threads. Same steps, same order, same
 * encoding as the verifier workers' job (crypto's order-check.ts); only the proof call differs.
 */
import {
  decodeOrderResults,
  encodeOrderCheck,
  finishOrderChecks,
  ORDER_RECORD_BYTES,
  prepareOrderChecks,
  type OrderCheckItem,
  type OrderCheckOutcome,
} from '@nightjar/crypto';

/** VALID_INPUT v2 verification of one proof and its three public inputs (32-byte big-endian each). */
export type VerifyInputProof = (proof: Uint8Array, publicInputs: Uint8Array) => Promise<boolean>;

export function inlineOrderChecker(
  verifyInputProof: VerifyInputProof,
): (check: OrderCheckItem) => Promise<OrderCheckOutcome> {
  return async (check) => {
    const record = new Uint8Array(ORDER_RECORD_BYTES);
    encodeOrderCheck(check, record, 0);
    const prepared = prepareOrderChecks(record, 1);
    const valid = await Promise.all(
      prepared.proofs.map((p) => verifyInputProof(p.proof, p.publicInputs as Uint8Array)),
    );
    return decodeOrderResults(finishOrderChecks(prepared, valid), 1)[0]!;
  };
}
