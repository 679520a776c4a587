/**
 * The local API's handlers, one per route of `APP_ROUTES` (a missing one is a compile error): each
 * gets its parsed body and parameters and answers with its route's view. The work is the
 * trader's, the operators' and the venue session's; this file only wires them to routes.
 */
import { AppError } from '../errors.js';
import type { Operators } from '../operator.js';
import { Sessions, type Session } from '../security.js';
import type { Trader } from '../trading/trader.js';
import type { VenueSession } from '../venue.js';
import type { AppHandlers } from './register.js';

export interface HandlerDeps {
  venue: VenueSession;
  trader: Trader;
  operators: Operators;
  sessions: Sessions;
  /** Another one-time login URL. */
  loginUrl(): string;
  /** A session's cookie was rotated: its events sockets follow it. */
  sessionMoved(from: string, to: string): void;
  /** The OpenAPI document, as served. */
  document(): Record<string, unknown>;
}

export function appHandlers(deps: HandlerDeps): AppHandlers {
  const { venue, trader: t, sessions } = deps;
  return {
    openapi: async () => deps.document(),
    newLoginLink: async () => ({ url: deps.loginUrl() }),
    logout: async ({ session, reply }) => {
      if (session.kind === 'bot')
        throw new AppError(
          400,
          'BAD_REQUEST',
          'the bot token is not a session and cannot log out',
          'to stop a bot token working, delete <data-dir>/app/api-token and restart the app (a new one is made)',
        );
      sessions.end(session.id);
      void reply.header('Set-Cookie', Sessions.clearedCookie());
      return { logged_in: false };
    },
    getVenue: async () => venue.venueView(),
    verifyVenue: async () => venue.reverify(),
    getMarkets: async () => t.markets.views(venue.require()),
    getBalances: async () => t.balances.views(),
    faucet: async ({ body }) => t.transfers.faucet(body),
    deposit: async ({ body }) => t.transfers.deposit(body),
    withdraw: async ({ body }) => t.transfers.withdraw(body),
    listOrders: async () => {
      venue.require();
      return t.orders.views();
    },
    placeOrder: async ({ body }) => t.orders.place(body),
    previewOrder: async ({ body }) => t.orders.preview(body),
    getOrder: async ({ params }) => {
      venue.require();
      const v = t.orders.view(params.order_id);
      if (!v) throw new AppError(404, 'NOT_FOUND', `no order ${params.order_id} in this wallet`);
      return v;
    },
    cancelOrder: async ({ params }) => t.orders.cancel(params.order_id),
    cancelAllOrders: async ({ body }) => t.orders.cancelAll(body.symbol),
    modifyOrder: async ({ params, body }) => t.orders.modify(params.order_id, body),
    listFills: async () => t.fills.views(),
    fillSummary: async () => t.fills.summary(),
    ...operatorHandlers(deps),
  };
}

type OperatorRouteId =
  | 'operatorLogin'
  | 'operatorSession'
  | 'operatorLogout'
  | 'operatorStatus'
  | 'operatorTransparency'
  | 'operatorMetrics'
  | 'drainStatus'
  | 'beginDrain'
  | 'cancelDrain'
  | 'listAccounts'
  | 'createAccount'
  | 'disableAccount'
  | 'enableAccount'
  | 'revokeAccountTokens';

function operatorHandlers(deps: HandlerDeps): Pick<AppHandlers, OperatorRouteId> {
  const { operators, sessions } = deps;
  return {
    operatorLogin: async ({ session, body, reply }) => {
      const result = await operators.login(session.id, body);
      // A change of privilege gets a new cookie: one seen before the login is worth nothing after it.
      const after: Session = sessions.rotate(session);
      if (after !== session) {
        operators.moveSession(session.id, after.id);
        deps.sessionMoved(session.id, after.id);
        void reply.header('Set-Cookie', sessions.cookie(after));
      }
      return result;
    },
    operatorSession: async ({ session }) => operators.sessionView(session.id),
    operatorLogout: async ({ session, reply }) => {
      await operators.logout(session.id);
      // A change of privilege gets a new cookie, as at login: the one that carried the admin login is void.
      const after: Session = sessions.rotate(session);
      if (after !== session) {
        deps.sessionMoved(session.id, after.id);
        void reply.header('Set-Cookie', sessions.cookie(after));
      }
      return { logged_in: false };
    },
    operatorStatus: async ({ session }) => operators.status(session.id),
    operatorTransparency: async ({ session }) => operators.transparency(session.id),
    operatorMetrics: async ({ session }) => operators.metrics(session.id),
    drainStatus: async ({ session }) => operators.drain(session.id, 'status'),
    beginDrain: async ({ session }) => operators.drain(session.id, 'begin'),
    cancelDrain: async ({ session }) => operators.drain(session.id, 'cancel'),
    listAccounts: async ({ session }) => operators.accountList(session.id),
    createAccount: async ({ session, body }) => operators.createAccount(session.id, body),
    disableAccount: async ({ session, params }) =>
      operators.accountAction(session.id, params.api_key, 'disable'),
    enableAccount: async ({ session, params }) =>
      operators.accountAction(session.id, params.api_key, 'enable'),
    revokeAccountTokens: async ({ session, params }) =>
      operators.accountAction(session.id, params.api_key, 'revoke-tokens'),
  };
}
