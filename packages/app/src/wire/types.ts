/**
 * The types of the local API's answers and WebSocket frames, each derived from its codec here
 * (requests' types are in `api-types.ts`, beside the parsers above the errors).
 */
import type { Infer } from '@nightjar/protocol';
import type { appEvent } from './events.js';
import type * as v from './views.js';

/** A failed call: HTTP status 4xx/5xx with this body. `code` is stable; `fix` says what to do. */
export type ApiError = Infer<typeof v.apiError>;
export type AttestationCheck = Infer<typeof v.attestationCheck>;
export type VenueView = Infer<typeof v.venueView>;
export type MarketView = Infer<typeof v.marketView>;
export type BalanceView = Infer<typeof v.balanceView>;
export type FaucetResult = Infer<typeof v.faucetResult>;
export type TransferView = Infer<typeof v.transferView>;
export type OrderType = (typeof v.ORDER_TYPES)[number];
export type Side = (typeof v.SIDES)[number];
export type OrderPreview = Infer<typeof v.orderPreview>;
export type OrderView = Infer<typeof v.orderView>;
export type FillView = Infer<typeof v.fillView>;
export type CancelAllResult = Infer<typeof v.cancelAllResult>;
export type FillSummaryView = Infer<typeof v.fillSummaryView>;
export type OperatorLoginView = Infer<typeof v.operatorLoginView>;
export type DrainView = Infer<typeof v.drainView>;
export type OperatorStatusView = Infer<typeof v.operatorStatusView>;
export type TransparencyView = Infer<typeof v.transparencyView>;
export type MetricsView = Infer<typeof v.metricsView>;
export type AccountView = Infer<typeof v.accountView>;
export type CreatedAccountView = Infer<typeof v.createdAccountView>;
/** Frames on the WebSocket `/api/v1/events` (after the session is checked on upgrade). */
export type AppEvent = Infer<typeof appEvent>;
