/** @nightjar/ledger: the simulated chain (DESIGN.md section 6). README.md holds its module map. */
// The client side (record types, method table, errors, transactions, RpcLedgerClient).
export * from '@nightjar/protocol/ledger-client';
export * from './clock.js';
export * from './ledger.js';
export { DEFAULT_ADMISSION_LIMITS, LOCAL_SOURCE, type AdmissionLimits } from './admission.js';
export * from './genesis.js';
export * from './genesis-authority.js';
export {
  argCodecs,
  MAX_LOCKS_PER_TX,
  MAX_MATCHES_PER_BATCH,
  type Args,
  type InstructionName,
} from './program/args.js';
export { LOCK_TTL_CEILING_SLOTS } from './program/locks.js';
export {
  validMatchJob,
  type Circuit,
  type LedgerProofVerifier,
  type ProofJob,
} from './program/proof-checks.js';
export * from './rpc-server.js';
export * from './tls-identity.js';
export { openSqlite, type SqliteDb } from './sqlite.js';
export { DEV_SECRET_FILE, readDevSecret } from './dev-secret.js';
export { DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limit.js';
export * from './proof-verifier.js';
