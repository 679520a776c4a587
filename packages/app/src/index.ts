export type * from './api-types.js';
