/**
 * @nightjar/ledger: the simulated chain (DESIGN.md section 6). Module map:
 *
 * Vocabulary and surface
 *   types.ts          records the JSON-RPC methods carry, commitment levels, faults, events
 *   methods.ts        the method table: params codec, result type, caller per method;
 *                     LedgerClient / LedgerDevControls are derived from it
 *   errors.ts         instruction error codes and JSON-RPC error codes
 *   addresses.ts      program-derived addresses (vault, mints, markets)
 *   transaction.ts    the signed transaction envelope, its digest (chain-bound) and work
 *   chain-info.ts     a client's cached view of the chain it signs for
 * The in-process ledger
 *   ledger.ts         Ledger: opens the store and wires reads, admission, writer, clock, faults
 *   ledger-reads.ts   every get* method, at the requested commitment level
 *   queries.ts        note status, memo pages, deposits, solvency (SQL behind the reads)
 *   admission.ts      per-signer lanes, per-source and fresh-signer shares, proof judging
 *   writer.ts         the single writer: transactions land one at a time
 *   faults.ts         dev fault injection: the running configuration and its dice
 *   clock.ts          the slot clock (auto or manual)
 *   chain-state.ts    balances, notes, nullifiers, locks, trees, signer sets
 *   root-window.ts    a shard's root window by age (getRootWindow)
 *   root-history.ts   every root every shard ever had (what locks, join-splits, withdrawals name)
 *   store.ts          SQLite persistence
 *   proof-verifier.ts the Groth16 verifier on worker threads
 *   program/          the vault program: argument codecs, one handler per instruction, locks,
 *                     settle_batch, the checks admission runs before proofs, and
 *                     proof-checks.ts: which proofs an instruction carries and their public inputs
 * Setup
 *   genesis.ts        vault, demo mints and markets; dev keys
 *   genesis-authority.ts  who alone may initialize a production ledger
 *   chain-id.ts       the chain id, fixed when the store is created
 * Over the network
 *   rpc-server.ts     JSON-RPC over HTTP and events over WebSocket, dispatched through the table
 *   tls-identity.ts   self-signed TLS identities: the engine's per boot, the ledger's kept in its data dir
 *   http-guard.ts     Host, Origin and Content-Type: what a browser could send is refused
 *   dev-secret.ts     the dev secret that dev-only calls over JSON-RPC must carry
 *   rate-limit.ts     a budget of reads per source address
 *   heavy-reads.ts    the reads that grow with their answer (pages, blocks, note states)
 *   reader-thread.ts  those reads on a worker thread (reader-worker.ts) with its own connection
 *   rpc-client.ts     RpcLedgerClient, generated from the table (https with a pinned certificate)
 *   tls-agent.ts      the client's HTTPS agent: a connection carries nothing until its pin checks
 *   tls-identity.ts   self-signed TLS identities: the engine's per boot, the ledger's kept in its data dir
 */
export * from './types.js';
export * from './methods.js';
export * from './errors.js';
export * from './clock.js';
export * from './addresses.js';
export * from './transaction.js';
export * from './chain-info.js';
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
export { MAX_MEMOS_PER_READ, MAX_NULLIFIERS_PER_READ } from './queries.js';
export * from './rpc-server.js';
export * from './tls-identity.js';
export { DEV_SECRET_FILE, readDevSecret } from './dev-secret.js';
export { DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limit.js';
export * from './rpc-client.js';
export * from './proof-verifier.js';
