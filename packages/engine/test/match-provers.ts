/**
 * Stand-ins for the VALID_MATCH prover and the engine's local verifier, for the many settlement
 * tests that are not about proofs: the stub prover builds the real witness (so the engine's
 * witness-equals-plan check and the ledger's public signals see the genuine values) and returns a
 * fake proof, which the harness's ledger accepts. Real proofs: real-proofs.ts.
 */
import { validMatchWitness, type ValidMatchParams } from '@nightjar/circuits';
import type { MatchProof, MatchProver, MatchVerifier } from '../src/settlement/match-prover.js';

export const FAKE_MATCH_PROOF = new Uint8Array(256).fill(0x11);

export interface StubMatchProver extends MatchProver {
  /** Every parameter set it was asked to prove, in order. */
  readonly calls: ValidMatchParams[];
  /** Makes the next proofs whose parameters match fail with a prover error. */
  failWhen(pred: (p: ValidMatchParams) => boolean): void;
}

export function stubMatchProver(): StubMatchProver {
  const calls: ValidMatchParams[] = [];
  let fail: ((p: ValidMatchParams) => boolean) | undefined;
  return {
    calls,
    failWhen(pred) {
      fail = pred;
    },
    async prove(params, signal) {
      signal?.throwIfAborted();
      calls.push(params);
      if (fail?.(params)) throw new Error('stub prover: proof failed');
      const w = validMatchWitness(params);
      const proof: MatchProof = { proof: FAKE_MATCH_PROOF, publicInputs: w.publicInputs, outputs: w.outputs };
      return proof;
    },
    async close() {},
  };
}

/** The engine's local check of match proofs, accepting every proof (the stub's included). */
export const acceptAllMatchProofs: MatchVerifier = { verify: async () => true };
