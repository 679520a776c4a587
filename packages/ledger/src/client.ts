/**
 * `@nightjar/ledger/client`: what a client of a ledger needs, and nothing that runs one. The
 * record types and method table, the error codes, program addresses, the signed transaction
 * envelope and `RpcLedgerClient`. Its module graph loads neither better-sqlite3 nor fastify, so the
 * SDK (and an outside project that installs it) never loads the ledger's store or server;
 * test/client-entry.test.ts holds it to that.
 */
export * from './types.js';
export * from './methods.js';
export * from './errors.js';
export * from './addresses.js';
export * from './transaction.js';
export * from './chain-info.js';
export * from './rpc-client.js';
export { MAX_MEMOS_PER_READ, MAX_NULLIFIERS_PER_READ } from './queries.js';
