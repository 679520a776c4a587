/** The errors NoteProver rejects with besides the witnesses' own (ProverInputError). */
/** The queue of pending proofs is full. */
export class ProverQueueFullError extends Error {
  override readonly name = 'ProverQueueFullError';
  constructor(readonly maxQueue: number) {
    super(`prover queue is full (${maxQueue} pending proofs)`);
  }
}

/** The prover was closed. */
export class ProverClosedError extends Error {
  override readonly name = 'ProverClosedError';
  constructor() {
    super('prover is closed');
  }
}

/** Proving failed inside a worker (witness rejected by the circuit, worker crash, ...). */
export class ProverError extends Error {
  override readonly name = 'ProverError';
}
