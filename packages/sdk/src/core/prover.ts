/** What makes proofs: the `Prover` seam the SDK proves through, and the results it returns. */
import type {
  JoinSplitWitness,
  ProofResult,
  ValidInputV2Params,
  ValidJoinSplitParams,
  ValidSpendV2Params,
} from '@nightjar/circuits';

/** A VALID_JOIN_SPLIT proof with what the witness derived: each input's root and nullifier, each output. */
export type JoinSplitProofResult = ProofResult & Pick<JoinSplitWitness, 'inputs' | 'outputs'>;

/** A VALID_SPEND v2 proof with its public inputs and the change note the witness derived. */
export type SpendV2ProofResult = ProofResult & {
  change: { amount: bigint; inner: bigint; commitment: bigint };
};

/** What makes proofs: `NoteProver` from `@nightjar/circuits`, or a test double. */
export interface Prover {
  /**
   * VALID_INPUT v2 for one order: the note, its path and the order's terms (`order`, DESIGN 3's
   * digest fields). Public inputs [use_tag, merkle_root, nullifier]; the proof backs that order
   * only (the venue refuses it for any other with 1011).
   */
  proveValidInputV2(req: ValidInputV2Params): Promise<{ proof: Uint8Array; publicInputs: bigint[] }>;
  /**
   * VALID_SPEND v2 for one withdrawal: pay `amount` of a note to `recipient`, the rest to a change
   * note of its owner (`change.commitment` 0 when nothing is left).
   */
  proveValidSpendV2(req: ValidSpendV2Params): Promise<SpendV2ProofResult>;
  /** Splits and merges; throws (ProverInputError) before proving a request the circuit would reject. */
  proveValidJoinSplit(req: ValidJoinSplitParams): Promise<JoinSplitProofResult>;
  close(): Promise<void>;
  /**
   * Proofs it runs at once (`NoteProver`: its workers); 1 when absent. The SDK hands it no more
   * than that and keeps the rest waiting its turn (see `proveInTurn`).
   */
  readonly workers?: number;
}

/** The prover each `reportingProver` wraps: clients sharing one prover share its turns. */
const wrapped = new WeakMap<Prover, Prover>();

/** The prover that actually proves: `prover` itself, or the one a `reportingProver` wraps. */
export function innerProver(prover: Prover): Prover {
  return wrapped.get(prover) ?? prover;
}

/** Which proof a `proof` event is about. */
export type ProofKind = 'valid_input' | 'valid_spend' | 'valid_join_split';

/**
 * A proof starting or done (`client.onProof`): told synchronously inside the action that proves,
 * so a listener can tell that action's progress (through its own async context).
 */
export interface ProofProgress {
  proof: ProofKind;
  /** `start` before the prover runs; `done` after it returned a proof (a failed proof tells no `done`). */
  stage: 'start' | 'done';
}

/** `inner`, telling `emit` when each proof starts and when it is done. */
export function reportingProver(inner: Prover, emit: (e: ProofProgress) => void): Prover {
  const around = async <T>(proof: ProofKind, work: () => Promise<T>): Promise<T> => {
    emit({ proof, stage: 'start' });
    const r = await work();
    emit({ proof, stage: 'done' });
    return r;
  };
  const outer: Prover = {
    proveValidInputV2: (req) => around('valid_input', () => inner.proveValidInputV2(req)),
    proveValidSpendV2: (req) => around('valid_spend', () => inner.proveValidSpendV2(req)),
    proveValidJoinSplit: (req) => around('valid_join_split', () => inner.proveValidJoinSplit(req)),
    close: () => inner.close(),
    ...(inner.workers === undefined ? {} : { workers: inner.workers }),
  };
  wrapped.set(outer, innerProver(inner));
  return outer;
}
