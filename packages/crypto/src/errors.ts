/**
 * Typed errors of the crypto primitives (Poseidon, notes, Merkle trees, X25519, fill memos). Each
 * carries a stable `code`; callers branch on the code (or the class), never on the message.
 */

export const CRYPTO_ERROR_CODES = [
  /** A value that must be a field element is not a bigint in [0, r). */
  'FIELD_ELEMENT_INVALID',
  /** An integer is outside its declared range (u64 amount, 128-bit mint half, output role). */
  'VALUE_OUT_OF_RANGE',
  /** Poseidon was called with a number of inputs it does not support. */
  'POSEIDON_ARITY',
  /** The Merkle tree holds 2^depth leaves; nothing more can be appended. */
  'MERKLE_TREE_FULL',
  /** A leaf index is not an integer in [0, size). */
  'MERKLE_LEAF_INDEX',
  /** A tree id is not an integer in [0, numTrees). */
  'MERKLE_UNKNOWN_TREE',
  /** A snapshot is truncated, corrupt, of another version, or does not fit the expected shape. */
  'MERKLE_SNAPSHOT_INVALID',
  /** A key does not have the expected encoding (for instance not 32 bytes). */
  'KEY_INVALID',
  /** An X25519 public key is low order (its shared secret with a probe scalar is all zero). */
  'X25519_NON_CONTRIBUTORY',
  /** A fill memo does not decrypt: truncated, tampered, or encrypted to another key. */
  'MEMO_DECRYPT_FAILED',
  /** A fill memo's fields (or an authenticated plaintext) do not fit the memo layout. */
  'MEMO_INVALID',
] as const;

export type CryptoErrorCode = (typeof CRYPTO_ERROR_CODES)[number];

export class CryptoError extends Error {
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

export class FieldElementError extends CryptoError {
  constructor(message: string) {
    super('FIELD_ELEMENT_INVALID', message);
  }
}

export class ValueRangeError extends CryptoError {
  constructor(message: string) {
    super('VALUE_OUT_OF_RANGE', message);
  }
}

export class PoseidonArityError extends CryptoError {
  constructor(message: string) {
    super('POSEIDON_ARITY', message);
  }
}

export class TreeFullError extends CryptoError {
  constructor(message: string) {
    super('MERKLE_TREE_FULL', message);
  }
}

export class LeafIndexError extends CryptoError {
  constructor(message: string) {
    super('MERKLE_LEAF_INDEX', message);
  }
}

export class UnknownTreeError extends CryptoError {
  constructor(message: string) {
    super('MERKLE_UNKNOWN_TREE', message);
  }
}

export class SnapshotError extends CryptoError {
  constructor(message: string) {
    super('MERKLE_SNAPSHOT_INVALID', message);
  }
}

export class KeyFormatError extends CryptoError {
  constructor(message: string) {
    super('KEY_INVALID', message);
  }
}

export class NonContributoryKeyError extends CryptoError {
  constructor(message = 'X25519 public key is not contributory (low order)') {
    super('X25519_NON_CONTRIBUTORY', message);
  }
}

export class MemoDecryptError extends CryptoError {
  constructor(message = 'fill memo does not decrypt', options?: ErrorOptions) {
    super('MEMO_DECRYPT_FAILED', message, options);
  }
}

export class MemoFormatError extends CryptoError {
  constructor(message: string) {
    super('MEMO_INVALID', message);
  }
}

/** True when `err` is a crypto error, optionally with the given code. */
export function isCryptoError(err: unknown, code?: CryptoErrorCode): err is CryptoError {
  return err instanceof CryptoError && (code === undefined || err.code === code);
}
