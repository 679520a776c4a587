/**
 * @nightjar/sdk: a verified, typed client for the Nightjar venue. `createClient` verifies the
 * transport and logs in; every action takes the client first (`placeOrder(client, params)`).
 * Layers (docs/sdk.md): core → wallet → client → notes → orders → actions → stream.
 */
export * from './core/transport/index.js';
export * from './core/errors/index.js';
export * from './client.js';
export { engineOfError, engineOrigin } from './core/engines.js';
export * from './core/nonce-store.js';
export * from './core/utils/decimal.js';
export * from './core/utils/backoff.js';
export * from './core/utils/json-safe.js';
export * from './wallet/keys.js';
export * from './wallet/keystore.js';
export * from './wallet/wallet.js';
export * from './wallet/order-status.js';
export * from './wallet/vocabulary.js';
export * from './actions/index.js';
export * from './core/stream/stream-client.js';
export * from './create-stream.js';
export { FreshNoteHold, type FreshNoteHoldOptions } from './wallet/fresh-note-hold.js';
export { fundingAddresses } from './wallet/funding-addresses.js';
export type {
  WalletEventMap,
  WalletEventName,
  WalletFillEvent,
  WalletListener,
  WalletNoteStoredEvent,
  WalletOrderEvent,
} from './wallet/events.js';
export type { StreamTimers } from './core/stream/heartbeat.js';
// Helpers under the verbs, public since before the layers: programs and the CLI use them.
export { assetParameter, learnAsset, resolveAsset } from './core/assets.js';
export { marketMints, mintDecimals } from './core/mint-decimals.js';
export {
  chooseNote,
  defaultBackingNote,
  largestAmount,
  orderReadyNotes,
  venueTree,
  type ChooseNoteOptions,
} from './notes/choose-note.js';
export { recoverDeposits, syncLeaves, syncShard } from './notes/ledger-sync.js';
export { mergeCandidates, type MergeCandidatesParameters } from './notes/merge-candidates.js';
export { refreshNoteStates } from './notes/note-states.js';
export { checkExpiry, DEFAULT_EXPIRY, resolveExpirySlot, type Expiry } from './orders/expiry.js';
export {
  orderTerms,
  type NotePreparation,
  type OrderTerms,
  type PrepareOptions,
} from './orders/order-terms.js';
export { prepareOrder, signOrder } from './orders/prepare-order.js';
export { refreshOrder, refreshTrackedOrders } from './orders/refresh-order.js';
export { signCancel } from './orders/sign-cancel.js';
export { submitOrder, trackPlaced } from './orders/submit-order.js';
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
