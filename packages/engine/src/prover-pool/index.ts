export * from './types.js';
export * from './worker-identity.js';
export * from './worker-evidence.js';
export * from './verify-worker.js';
export * from './challenges.js';
export * from './registry.js';
export * from './registration.js';
