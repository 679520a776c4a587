/**
 * Start-up: the proof checkers. Each order's VALID_INPUT v2 proof is checked in crypto's verifier
 * workers (or inline, when a test passes `verifyInputProof`); the match proofs' local check shares
 * those workers when there are any (`valid_match_v2`; dev mode loads the committed dev key).
 */
import { AdaptiveBatcher, ORDER_CHECK_PUBLIC_INPUTS } from '@nightjar/crypto';
import { loadVerificationKey } from '@nightjar/circuits';
import type { EngineOptions } from '../engine-options.js';
import { inlineOrderChecker } from '../orders/inline-order-check.js';
import type { IntakeDeps } from '../orders/intake.js';

export interface Verifiers {
  checkOrder: IntakeDeps['checkOrder'];
  /** The order checks' workers (none when orders are checked inline). */
  batcher: AdaptiveBatcher | undefined;
  /** The match proofs' workers: `batcher` when there is one; none with a settlement stand-in. */
  matchBatcher: AdaptiveBatcher | undefined;
}

export async function startVerifiers(options: EngineOptions): Promise<Verifiers> {
  const matchKey =
    options.settlement || options.matchVerifier
      ? undefined
      : (options.validMatchKey ?? (options.dev ? await loadVerificationKey('valid_match_v2') : undefined));
  if (!options.settlement && !options.matchVerifier && !matchKey)
    throw new Error('startEngine needs validMatchKey or matchVerifier to check match proofs');
  const workerOptions = options.verifierWorkers === undefined ? {} : { size: options.verifierWorkers };
  if (options.verifyInputProof) {
    const matchBatcher = matchKey
      ? await AdaptiveBatcher.create({
          keys: { valid_match_v2: matchKey },
          ...workerOptions,
          defaultKeyId: 'valid_match_v2',
        })
      : undefined;
    return { checkOrder: inlineOrderChecker(options.verifyInputProof), batcher: undefined, matchBatcher };
  }
  if (!options.validInputKey) throw new Error('startEngine needs validInputKey or verifyInputProof');
  // Intake verifies VALID_INPUT v2 ([use_tag, merkle_root, nullifier]); any other key cannot serve.
  if (options.validInputKey.nPublic !== ORDER_CHECK_PUBLIC_INPUTS)
    throw new Error('validInputKey must be the VALID_INPUT v2 key (valid_input_v2, 3 public inputs)');
  const batcher = await AdaptiveBatcher.create({
    keys: { valid_input_v2: options.validInputKey, ...(matchKey ? { valid_match_v2: matchKey } : {}) },
    ...workerOptions,
    defaultKeyId: 'valid_input_v2',
  });
  return {
    checkOrder: (check) => batcher.checkOrder(check, 'valid_input_v2'),
    batcher,
    matchBatcher: matchKey ? batcher : undefined,
  };
}
