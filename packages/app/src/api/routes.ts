/**
 * Every route of the local API, in one table keyed by route id (the OpenAPI operationId). The
 * server attaches one handler per id (checked exhaustive at compile time, `handlers.ts`) and
 * registers the Fastify routes from it (`register.ts`); `openapi.ts` documents exactly these.
 */
import { tableEntries, type RouteParam, type RouterRouteIds } from '@nightjar/protocol';
import { appEvent } from '../wire/events.js';
import { anyObject, list } from '../wire/doc-codecs.js';
import * as q from './requests.js';
import type { AppErrorStatus, AppRouteDescriptor } from './route-descriptor.js';
import * as v from '../wire/views.js';

/** Every route may answer these with the `ApiError` envelope. */
const ERRORS = [400, 401, 403, 404, 409, 503] as const satisfies readonly AppErrorStatus[];
const pathParam = <const N extends string>(name: N) =>
  ({ name, in: 'path', required: true, schema: { type: 'string' } }) as const satisfies RouteParam;
const orderId = pathParam('order_id');
const apiKey = pathParam('api_key');

const trading = { tag: 'trading', auth: 'session', errors: ERRORS } as const;
const operator = { tag: 'operator', auth: 'operator', errors: ERRORS } as const;
const system = { tag: 'system', auth: 'session', errors: ERRORS } as const;
const ok = <C>(codec: C, status = 200) => ({ status, codec }) as const;

export const APP_ROUTES = {
  openapi: { ...system, method: 'get', path: '/openapi.json', summary: 'This document', ok: ok(anyObject()) },
  newLoginLink: {
    ...system,
    method: 'post',
    path: '/session/links',
    summary: 'A new one-time login URL for a browser (what `nightjar app --link` prints)',
    ok: ok(v.loginLink),
  },
  logout: {
    ...system,
    method: 'post',
    path: '/session/logout',
    summary:
      'End this browser session: its cookie is cleared, its operator login and events sockets end (browser sessions also end after 30 idle minutes or 12 hours)',
    ok: ok(v.loggedOut),
  },
  getVenue: {
    ...system,
    tag: 'venue',
    method: 'get',
    path: '/venue',
    summary: "The venue's identity and attestation checks (a)–(d)",
    ok: ok(v.venueView),
  },
  verifyVenue: {
    ...system,
    tag: 'venue',
    method: 'post',
    path: '/venue/verify',
    summary: 'Check the venue again on a new connection',
    ok: ok(v.venueView),
  },
  getMarkets: {
    ...trading,
    method: 'get',
    path: '/markets',
    summary: 'Markets in human units',
    ok: ok(list(v.marketView)),
  },
  getBalances: {
    ...trading,
    method: 'get',
    path: '/balances',
    summary: 'Balances per asset, from the wallet',
    ok: ok(list(v.balanceView)),
  },
  faucet: {
    ...trading,
    method: 'post',
    path: '/faucet',
    summary: 'Dev venues: airdrop to the funding account',
    body: q.faucetRequest,
    ok: ok(v.faucetResult),
  },
  deposit: {
    ...trading,
    method: 'post',
    path: '/deposits',
    summary: 'Deposit into a note; resolves once it can back an order',
    body: q.depositRequest,
    ok: ok(v.transferView),
  },
  withdraw: {
    ...trading,
    method: 'post',
    path: '/withdrawals',
    summary: 'Withdraw any amount to the address given, in one transaction signed by a one-time key',
    body: q.withdrawRequest,
    ok: ok(v.transferView),
  },
  listOrders: {
    ...trading,
    method: 'get',
    path: '/orders',
    summary: "The wallet's orders, newest first",
    ok: ok(list(v.orderView)),
  },
  placeOrder: {
    ...trading,
    method: 'post',
    path: '/orders',
    summary: 'Prove, sign and place (progress frames on the WebSocket)',
    body: q.orderRequest,
    ok: ok(v.orderView, 201),
  },
  previewOrder: {
    ...trading,
    method: 'post',
    path: '/orders/preview',
    summary: 'The exact conversion and the order checks, without a proof',
    body: q.orderRequest,
    ok: ok(v.orderPreview),
  },
  getOrder: {
    ...trading,
    method: 'get',
    path: '/orders/{order_id}',
    summary: 'One order',
    params: [orderId],
    ok: ok(v.orderView),
  },
  cancelAllOrders: {
    ...trading,
    method: 'post',
    path: '/orders/cancel-all',
    summary:
      "Cancel every live order of the account (the venue's list, not only this wallet's), or one market's with `symbol`",
    body: q.cancelAllRequest,
    ok: ok(v.cancelAllResult),
  },
  cancelOrder: {
    ...trading,
    method: 'delete',
    path: '/orders/{order_id}',
    summary: 'Cancel',
    params: [orderId],
    ok: ok(v.orderView),
  },
  modifyOrder: {
    ...trading,
    method: 'patch',
    path: '/orders/{order_id}',
    summary: 'Replace atomically (new price or amount)',
    params: [orderId],
    body: q.modifyRequest,
    ok: ok(v.orderView),
  },
  listFills: {
    ...trading,
    method: 'get',
    path: '/fills',
    summary: 'Fills with their settlement (batch, stage, outcome, signature)',
    ok: ok(list(v.fillView)),
  },
  fillSummary: {
    ...trading,
    method: 'get',
    path: '/fills/summary',
    summary: 'Per market: average fill prices, fees paid, realised P&L (average cost) from your own fills',
    ok: ok(list(v.fillSummaryView)),
  },
  // The login itself needs a session only; every other operator route needs the login.
  operatorLogin: {
    ...operator,
    auth: 'session',
    method: 'post',
    path: '/operator/login',
    summary: 'Admin login, held by the app for this session',
    body: q.operatorLoginRequest,
    ok: ok(v.operatorLoginView),
  },
  operatorLogout: {
    ...operator,
    auth: 'session',
    method: 'post',
    path: '/operator/logout',
    summary: 'End the admin login',
    ok: ok(v.loggedOut),
  },
  operatorStatus: {
    ...operator,
    method: 'get',
    path: '/operator/status',
    summary: 'System status and drain',
    ok: ok(v.operatorStatusView),
  },
  operatorTransparency: {
    ...operator,
    method: 'get',
    path: '/operator/transparency',
    summary: 'Vault balance against outstanding notes, per mint',
    ok: ok(v.transparencyView),
  },
  operatorMetrics: {
    ...operator,
    method: 'get',
    path: '/operator/metrics',
    summary: 'Settlement latency quantiles per stage',
    ok: ok(v.metricsView),
  },
  drainStatus: {
    ...operator,
    method: 'get',
    path: '/operator/drain',
    summary: 'Drain status',
    ok: ok(v.drainView),
  },
  beginDrain: {
    ...operator,
    method: 'post',
    path: '/operator/drain',
    summary: 'Begin a drain (new trading paused)',
    ok: ok(v.drainView),
  },
  cancelDrain: {
    ...operator,
    method: 'delete',
    path: '/operator/drain',
    summary: 'Cancel the drain',
    ok: ok(v.drainView),
  },
  listAccounts: {
    ...operator,
    method: 'get',
    path: '/operator/accounts',
    summary: 'Accounts this app created or changed',
    ok: ok(list(v.accountView)),
  },
  createAccount: {
    ...operator,
    method: 'post',
    path: '/operator/accounts',
    summary: 'Create an account; its credentials are shown once',
    body: q.createAccountRequest,
    ok: ok(v.createdAccountView, 201),
  },
  disableAccount: {
    ...operator,
    method: 'post',
    path: '/operator/accounts/{api_key}/disable',
    summary: 'Suspend an account',
    params: [apiKey],
    ok: ok(v.accountView),
  },
  enableAccount: {
    ...operator,
    method: 'post',
    path: '/operator/accounts/{api_key}/enable',
    summary: 'Reinstate an account',
    params: [apiKey],
    ok: ok(v.accountView),
  },
  revokeAccountTokens: {
    ...operator,
    method: 'post',
    path: '/operator/accounts/{api_key}/revoke-tokens',
    summary: "Revoke an account's tokens",
    params: [apiKey],
    ok: ok(v.accountView),
  },
  events: {
    tag: 'events',
    auth: 'session',
    errors: ERRORS,
    method: 'get',
    path: '/events',
    summary: 'WebSocket upgrade: AppEvent frames (venue, order, fill, balances, progress, connection)',
    ok: ok(appEvent, 101),
    upgrade: true,
  },
} as const satisfies Record<string, AppRouteDescriptor>;

export type AppRouteId = keyof typeof APP_ROUTES;
/** The routes the router answers (all but the WebSocket upgrade). */
export type AppRestRouteId = RouterRouteIds<typeof APP_ROUTES>;

/** `[id, descriptor]` for every route, in table order. */
export const appRouteEntries = () => tableEntries<typeof APP_ROUTES, AppRouteDescriptor>(APP_ROUTES);
