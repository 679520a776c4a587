export * from './account-service.js';
export * from './credential-hasher.js';
export * from './store.js';
export * from './tokens.js';
export * from './sqlite-store.js';
export * from './pg-store.js';
