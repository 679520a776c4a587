export * from './engine.js';
export * from './tls.js';
export * from './attestation/index.js';
export { staticDirectory, type ListedMarket, type MarketDirectory } from './market-directory.js';
export { attestationHandlers, type AttestationRoutesOptions } from './http/routes/attestation.js';
export type { EngineContext } from './http/context.js';
export type { SettlementSeam, SettlementBatch } from './settlement/types.js';
export * from './prover-pool/index.js';
