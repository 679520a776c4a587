/**
 * The local API's wire types: the one contract between the app server (`src/`), the web front end
 * (`web/`) and bots, each derived from the codec of `api/` that also documents it in the OpenAPI
 * document. Every amount and price is a decimal string in human units ("1.5" SOL, "101.25" USDC
 * per SOL); the exact smallest-unit value travels beside it where a user should see the
 * conversion. All paths are under `/api/v1`.
 */
import type { Infer } from '@nightjar/protocol';
import type { appEvent } from './api/events.js';
import type * as q from './api/requests.js';
import type * as v from './api/views.js';

/** A failed call: HTTP status 4xx/5xx with this body. `code` is stable; `fix` says what to do. */
export type ApiError = Infer<typeof v.apiError>;
export type AttestationCheck = Infer<typeof v.attestationCheck>;
export type VenueView = Infer<typeof v.venueView>;
export type MarketView = Infer<typeof v.marketView>;
export type BalanceView = Infer<typeof v.balanceView>;
export type FaucetRequest = Infer<typeof q.faucetRequest>;
export type FaucetResult = Infer<typeof v.faucetResult>;
export type DepositRequest = Infer<typeof q.depositRequest>;
export type WithdrawRequest = Infer<typeof q.withdrawRequest>;
export type TransferView = Infer<typeof v.transferView>;
export type OrderType = (typeof v.ORDER_TYPES)[number];
export type Side = (typeof v.SIDES)[number];
export type OrderRequest = Infer<typeof q.orderRequest>;
export type OrderPreview = Infer<typeof v.orderPreview>;
export type OrderView = Infer<typeof v.orderView>;
export type ModifyRequest = Infer<typeof q.modifyRequest>;
export type FillView = Infer<typeof v.fillView>;
export type OperatorLoginRequest = Infer<typeof q.operatorLoginRequest>;
export type OperatorLoginView = Infer<typeof v.operatorLoginView>;
export type DrainView = Infer<typeof v.drainView>;
export type OperatorStatusView = Infer<typeof v.operatorStatusView>;
export type TransparencyView = Infer<typeof v.transparencyView>;
export type MetricsView = Infer<typeof v.metricsView>;
export type AccountView = Infer<typeof v.accountView>;
export type CreateAccountRequest = Infer<typeof q.createAccountRequest>;
export type CreatedAccountView = Infer<typeof v.createdAccountView>;
/** Frames on the WebSocket `/api/v1/events` (after the session is checked on upgrade). */
export type AppEvent = Infer<typeof appEvent>;
