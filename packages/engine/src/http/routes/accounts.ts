/**
 * HTTP handlers for accounts and tokens, and the Bearer/admin guards every authenticated route
 * uses. `registerRoutes` attaches them on the server from `buildHttpServer`, whose error handler
 * turns a thrown `VenueError` into the spec's envelope.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  accountSettingsCodec,
  createAccountCodec,
  parseBody,
  tokenRequestCodec,
  VenueError,
  type AccountSettings,
  type AccountStateResponse,
  type Codec,
  type CreatedAccountResponse,
  type RevokeResponse,
  type TokenResponse,
} from '@nightjar/protocol';
import type { RouteHandlers } from '../register-routes.js';
import type { AccountService, Principal } from '../../accounts/account-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by {@link requireAccount} / {@link requireAdmin}. */
    principal?: Principal;
  }
}

type Guard = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** preHandler for Bearer routes: 401 1101 without a valid token, 403 1150 when suspended. */
export function requireAccount(accounts: AccountService): Guard {
  return async (req) => {
    req.principal = accounts.authenticate(req.headers.authorization);
  };
}

/** preHandler for `/admin/*` routes: as {@link requireAccount}, then 403 1150 for non-admins. */
export function requireAdmin(accounts: AccountService): Guard {
  return async (req) => {
    const principal = accounts.authenticate(req.headers.authorization);
    if (!principal.isAdmin) throw new VenueError(1150, 'admin only');
    req.principal = principal;
  };
}

/** The principal a guard attached; a route without a guard gets 401 rather than a crash. */
export function principalOf(req: FastifyRequest): Principal {
  if (req.principal === undefined) throw new VenueError(1101, 'missing bearer token');
  return req.principal;
}

function parse<T>(codec: Codec<T>, raw: unknown): T {
  const result = parseBody(codec, raw);
  if (!result.ok) throw new VenueError(result.code, result.message);
  return result.value;
}

/** The account and token routes' handlers; their guards come from the route table's `auth`. */
export function accountHandlers(accounts: AccountService) {
  return {
    login: async (req, reply): Promise<TokenResponse> => {
      const body = parse(tokenRequestCodec, req.body);
      const response = await accounts.login(body);
      void reply.header('cache-control', 'no-store');
      return response;
    },
    revokeToken: async (req): Promise<RevokeResponse> => accounts.revoke(principalOf(req)),
    getSettings: async (req): Promise<AccountSettings> => accounts.getSettings(principalOf(req).accountId),
    putSettings: async (req): Promise<AccountSettings> => {
      const body = parse(accountSettingsCodec, req.body);
      return accounts.putSettings(principalOf(req).accountId, body);
    },
    createAccount: async (req, reply): Promise<CreatedAccountResponse> => {
      // Both fields are optional, so an absent body means `{}`.
      const body = parse(createAccountCodec, req.body === undefined ? {} : req.body);
      const created = await accounts.createAccount(body);
      void reply.header('cache-control', 'no-store');
      return created;
    },
    disableAccount: async (req): Promise<AccountStateResponse> => accounts.disable(req.params.api_key),
    enableAccount: async (req): Promise<AccountStateResponse> => accounts.enable(req.params.api_key),
    revokeAccountTokens: async (req): Promise<AccountStateResponse> =>
      accounts.revokeTokens(req.params.api_key),
  } satisfies Partial<RouteHandlers>;
}
