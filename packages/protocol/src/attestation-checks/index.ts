/**
 * The attestation checks a verifier runs on a TDX quote and its event log, shared by the SDK (a
 * client verifying an engine) and the engine (verifying a prover worker). A subpath of its own so
 * that `@phala/dcap-qvl` stays out of what only needs the wire codecs.
 */
export * from './check-error.js';
export * from './check-quote.js';
export * from './check-event-log.js';
