/**
 * Typed errors of the Groth16 module. Each carries a stable `code`; callers branch on the code (or
 * the class), never on the message.
 */

export const GROTH16_ERROR_CODES = [
  /** Proof bytes are not exactly 256 bytes long. */
  'GROTH16_PROOF_LENGTH',
  /** A proof or key coordinate is not below the base field modulus p. */
  'GROTH16_COORDINATE_OUT_OF_RANGE',
  /** snarkjs JSON (proof, key or public signals) does not have the expected shape. */
  'GROTH16_MALFORMED_JSON',
  /** Public-input bytes are not a whole number of 32-byte elements, or the count is wrong. */
  'GROTH16_PUBLIC_INPUT_LENGTH',
  /** A public input is not below the scalar field modulus r. */
  'GROTH16_PUBLIC_INPUT_OUT_OF_RANGE',
  /** A verification key is malformed or one of its points is not a valid group element. */
  'GROTH16_INVALID_VERIFICATION_KEY',
  /** No verification key is registered under the requested key id. */
  'GROTH16_UNKNOWN_KEY',
  /** The verifier's bounded queue is full: the caller should answer "at capacity". */
  'GROTH16_QUEUE_FULL',
  /** The verifier (pool or batcher) has been closed. */
  'GROTH16_VERIFIER_CLOSED',
  /** A verification worker failed (crashed, exited or could not start). */
  'GROTH16_WORKER_FAILED',
] as const;

export type Groth16ErrorCode = (typeof GROTH16_ERROR_CODES)[number];

export class Groth16Error extends Error {
  readonly code: Groth16ErrorCode;

  constructor(code: Groth16ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Malformed proof bytes or proof JSON (length, coordinate range, shape). */
export class ProofFormatError extends Groth16Error {
  constructor(
    code: 'GROTH16_PROOF_LENGTH' | 'GROTH16_COORDINATE_OUT_OF_RANGE' | 'GROTH16_MALFORMED_JSON',
    message: string,
  ) {
    super(code, message);
  }
}

/** Malformed public inputs (length, count, range, shape). */
export class PublicInputError extends Groth16Error {
  constructor(
    code: 'GROTH16_PUBLIC_INPUT_LENGTH' | 'GROTH16_PUBLIC_INPUT_OUT_OF_RANGE' | 'GROTH16_MALFORMED_JSON',
    message: string,
  ) {
    super(code, message);
  }
}

/** A verification key that cannot be used, or an unknown key id. */
export class VerificationKeyError extends Groth16Error {
  constructor(
    code:
      | 'GROTH16_INVALID_VERIFICATION_KEY'
      | 'GROTH16_UNKNOWN_KEY'
      | 'GROTH16_MALFORMED_JSON'
      | 'GROTH16_COORDINATE_OUT_OF_RANGE',
    message: string,
  ) {
    super(code, message);
  }
}

/** The bounded verification queue is full. */
export class VerifierCapacityError extends Groth16Error {
  constructor(message = 'verification queue is full') {
    super('GROTH16_QUEUE_FULL', message);
  }
}

/** The verifier has been closed. */
export class VerifierClosedError extends Groth16Error {
  constructor(message = 'verifier is closed') {
    super('GROTH16_VERIFIER_CLOSED', message);
  }
}

/** A worker thread failed while verifying or starting. */
export class VerifierWorkerError extends Groth16Error {
  constructor(message: string) {
    super('GROTH16_WORKER_FAILED', message);
  }
}

/** True when `err` is a Groth16 error, optionally with the given code. */
export function isGroth16Error(err: unknown, code?: Groth16ErrorCode): err is Groth16Error {
  return err instanceof Groth16Error && (code === undefined || err.code === code);
}
