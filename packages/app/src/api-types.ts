/**
 * The local API's wire types: the one contract between the app server (`src/`), the web front end
 * (`web/`) and bots, each derived from the codec that also documents it in the OpenAPI document
 * (answers and frames: `wire/`; request bodies: `api/requests.ts`). Every amount and price is a
 * decimal string in human units ("1.5" SOL, "101.25" USDC per SOL); the exact smallest-unit value
 * travels beside it where a user should see the conversion. All paths are under `/api/v1`.
 */
import type { Infer } from '@nightjar/protocol';
import type * as q from './api/requests.js';

export type * from './wire/types.js';
export type FaucetRequest = Infer<typeof q.faucetRequest>;
export type DepositRequest = Infer<typeof q.depositRequest>;
export type WithdrawRequest = Infer<typeof q.withdrawRequest>;
export type OrderRequest = Infer<typeof q.orderRequest>;
export type ModifyRequest = Infer<typeof q.modifyRequest>;
export type CancelAllRequest = Infer<typeof q.cancelAllRequest>;
export type OperatorLoginRequest = Infer<typeof q.operatorLoginRequest>;
export type CreateAccountRequest = Infer<typeof q.createAccountRequest>;
