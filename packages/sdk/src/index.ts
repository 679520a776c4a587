/**
 * @nightjar/sdk: a verified, typed client for the Nightjar venue. `createClient` verifies the
 * transport and logs in; every action takes the client first (`placeOrder(client, params)`).
 */
export * from './transport/index.js';
export * from './errors.js';
export * from './client.js';
export * from './nonce-store.js';
export * from './utils/decimal.js';
export * from './utils/backoff.js';
export * from './wallet/keys.js';
export * from './wallet/keystore.js';
export * from './wallet/wallet.js';
export * from './wallet/order-status.js';
export * from './actions/index.js';
export * from './stream/stream-client.js';
export * from './create-stream.js';
export { FreshNoteHold, type FreshNoteHoldOptions } from './notes/fresh-note-hold.js';
export { StreamOverflowError } from './stream/event-queue.js';
export type { StreamTimers } from './stream/heartbeat.js';
// The venue's wire types a program handles, so it needs no import from @nightjar/protocol.
export type {
  CancelResponse,
  FillEvent,
  InclusionResponse,
  InfoResponse,
  Instrument,
  ModifyResponse,
  OrderEvent,
  OrderEventKind,
  OrderStatusResponse,
  PlaceOrderResponse,
  SettlementStatusResponse,
  StreamEvent,
  SystemStatusResponse,
  TimeResponse,
  TreeEvent,
  TreeRootResponse,
} from '@nightjar/protocol';
