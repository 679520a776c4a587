export { openPinnedSocket, PinnedSocket } from './pinned-socket.js';
export type {
  HttpResponse,
  OpenPinnedSocketParameters,
  OpenPinnedSocketReturnType,
  RequestOptions,
} from './pinned-socket.js';
export * from './fetch-evidence.js';
export * from './check-quote.js';
export * from './check-manifest.js';
export * from './check-event-log.js';
export * from './check-measurements.js';
export * from './collateral.js';
export * from './check-identity.js';
export * from './check-evidence.js';
export * from './verify-transport.js';
export * from './create-transport.js';
