/** Fixtures several packages' tests share that load no venue code: a fake dstack guest agent, the toy Groth16 keys. */
export * from './fake-dstack.js';
export * from './groth16-fixtures.js';
