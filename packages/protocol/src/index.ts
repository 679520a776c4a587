export * from './encoding.js';
