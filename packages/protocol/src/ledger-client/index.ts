/**
 * `@nightjar/protocol/ledger-client`: what a client of a ledger needs, and nothing that runs one.
 * The record types and method table, the error codes, program addresses, the signed transaction
 * envelope and `RpcLedgerClient`. It lives here, not in `@nightjar/ledger`, so that the SDK (and an
 * outside project that installs it) never installs the ledger's store or server (better-sqlite3,
 * fastify, selfsigned): docs/architecture.md, "Packages as an outside project gets them".
 */
export * from './types.js';
export * from './methods.js';
export * from './errors.js';
export * from './addresses.js';
export * from './transaction.js';
export * from './chain-info.js';
export * from './rpc-client.js';
export * from './read-limits.js';
