/**
 * Stand-ins for the prover (VALID_MATCH v2 and VALID_LOCK) and the engine's local verifier, for
 * the many settlement tests that are not about proofs: the stub prover builds the real witness (so
 * the engine's witness-equals-plan check, its lock checks and the ledger's public signals see the
 * genuine values) and returns a fake proof, which the harness's ledger accepts. Real proofs:
 * real-proofs.ts.
 */
import {
  validLockWitness,
  validMatchV2Witness,
  type LockProofResult,
  type ValidLockParams,
  type ValidMatchV2Params,
} from '@nightjar/circuits';
import { validMatchV2PublicSignals } from '@nightjar/crypto';
import type { EngineOptions } from '@nightjar/engine';

// The engine's prover seam, named as its options type names it (its own module is not exported).
type MatchProver = NonNullable<EngineOptions['matchProver']>;
type MatchVerifier = NonNullable<EngineOptions['matchVerifier']>;
type MatchProof = Awaited<ReturnType<MatchProver['prove']>>;

export const FAKE_MATCH_PROOF = new Uint8Array(256).fill(0x11);
export const FAKE_LOCK_PROOF = new Uint8Array(256).fill(0x12);

export interface StubMatchProver extends MatchProver {
  /** Every match parameter set it was asked to prove, in order. */
  readonly calls: ValidMatchV2Params[];
  /** Every lock parameter set it was asked to prove, in order. */
  readonly lockCalls: ValidLockParams[];
  /** Makes the next proofs whose parameters match fail with a prover error. */
  failWhen(pred: (p: ValidMatchV2Params) => boolean): void;
  /** Makes every lock proof fail with a prover error. */
  failLocks(): void;
  /**
   * Holds every lock proof until `release()` (a test sees the lock proof in progress); resolves
   * `started` once the first held proof is asked for.
   */
  holdLocks(): { started: Promise<void>; release(): void };
}

export function stubMatchProver(): StubMatchProver {
  const calls: ValidMatchV2Params[] = [];
  const lockCalls: ValidLockParams[] = [];
  let fail: ((p: ValidMatchV2Params) => boolean) | undefined;
  let held: { gate: Promise<void>; started: () => void } | undefined;
  let locksFail = false;
  return {
    calls,
    lockCalls,
    failWhen(pred) {
      fail = pred;
    },
    failLocks() {
      locksFail = true;
    },
    holdLocks() {
      let release!: () => void;
      let started!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const startedP = new Promise<void>((r) => (started = r));
      held = { gate, started };
      return {
        started: startedP,
        release: () => {
          held = undefined;
          release();
        },
      };
    },
    async prove(params, signal) {
      signal?.throwIfAborted();
      calls.push(params);
      if (fail?.(params)) throw new Error('stub prover: proof failed');
      const w = validMatchV2Witness(params);
      const proof: MatchProof = {
        proof: FAKE_MATCH_PROOF,
        publicInputs: w.publicInputs,
        publicSignals: validMatchV2PublicSignals(w.publicInputs),
        outputs: w.outputs,
      };
      return proof;
    },
    async proveLock(params, signal): Promise<LockProofResult> {
      signal?.throwIfAborted();
      lockCalls.push(params);
      if (locksFail) throw new Error('stub prover: lock proof failed');
      if (held) {
        held.started();
        await held.gate;
      }
      const w = validLockWitness(params);
      return { proof: FAKE_LOCK_PROOF, publicInputs: w.publicInputs, derived: w.derived };
    },
    async close() {},
  };
}

/** The engine's local check of match proofs, accepting every proof (the stub's included). */
export const acceptAllMatchProofs: MatchVerifier = { verify: async () => true };
