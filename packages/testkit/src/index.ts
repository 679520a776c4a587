/**
 * Nightjar's test kit, the in-process side: an engine over HTTPS in front of an in-process dev
 * ledger (`startTestVenue`), its HTTPS client, the stand-in match provers, and the SDK's stand-in
 * prover and parties. Tests only. Venues in their own processes: `@nightjar/testkit/process`; light
 * fixtures (no engine loaded): `@nightjar/testkit/fixtures`.
 */
export * from './engine-venue.js';
export * from './https-client.js';
export * from './match-provers.js';
export * from './sdk-fast-venue.js';
export * from './two-engines.js';
