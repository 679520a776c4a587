export * from './transport/index.js';
