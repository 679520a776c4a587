/** Why an instruction failed. Codes are stable; messages name the rule, never secrets. */
export const INSTRUCTION_ERRORS = {
  InvalidArgs: 'arguments do not match the instruction',
  UnknownInstruction: 'no such instruction',
  NotInitialized: 'vault is not initialized',
  AlreadyInitialized: 'vault is already initialized',
  Unauthorized: 'signer may not run this instruction',
  UnknownMint: 'no such mint',
  UnknownMarket: 'no such market',
  MarketExists: 'a market with this symbol exists',
  InsufficientFunds: 'balance too low',
  CommitmentMismatch: 'commitment does not re-derive from mint, amount and opening_hash',
  DuplicateCommitment: 'a note with this commitment exists',
  TreeFull: 'tree shard is full',
  BadTreeId: 'no such tree shard',
  UnknownRoot: 'merkle_root was never a root of the shard',
  UnknownNote: 'no such note',
  NoteLocked: 'note is locked',
  NoteSpent: 'note is already spent',
  InvalidProof: 'proof did not verify',
  BadLockExpiry: 'lock expiry outside the allowed window',
  NotLocked: 'note is not locked',
  LockExpired: 'lock has expired',
  LockActive: 'lock has not expired',
  ValueNotConserved: 'inputs and outputs do not balance per mint',
  MintMismatch: 'mint does not match the note',
  BatchTooLarge: 'too many matches in one batch',
  SolvencyViolation: 'vault balance would differ from unspent note value',
  SettlementExpired: 'settlement landed after its settle_by_slot',
} as const;
/** The closed set of instruction error codes: a table keyed by it must name every code. */
export type InstructionErrorCode = keyof typeof INSTRUCTION_ERRORS;

/** Whether a code read off the wire (`TransactionError.code`) is one of the ledger's. */
export function isInstructionErrorCode(code: string): code is InstructionErrorCode {
  return Object.hasOwn(INSTRUCTION_ERRORS, code);
}

export class InstructionError extends Error {
  override readonly name = 'InstructionError';
  constructor(
    readonly code: InstructionErrorCode,
    message?: string,
  ) {
    super(message ?? INSTRUCTION_ERRORS[code]);
  }
  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** JSON-RPC level failures (the transaction never landed, or the call itself was bad). */
export const RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** Transaction refused before landing: bad signature, stale nonce, rejected by fault injection. */
  transactionRejected: -32002,
  /** The node did not answer in time (fault injection: the transaction may still land). */
  nodeTimeout: -32004,
  /** The node is down (fault injection outage). */
  nodeUnavailable: -32005,
  /** Dev-only method on a non-dev ledger, or over JSON-RPC without the ledger's dev secret. */
  notAllowed: -32006,
  /**
   * Transaction refused for load before anything ran (nonce not used): too many transactions of
   * this signer (or of all signers) are waiting to land, or the proof verifier is at capacity.
   */
  busy: -32007,
  /**
   * Refused before anything ran: this source address (an IPv6 one by its /64) spent its share of
   * the ledger's reads; its budget refills within a second or two.
   */
  rateLimited: -32008,
} as const;

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
