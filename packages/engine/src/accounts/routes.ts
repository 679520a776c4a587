/**
 * HTTP routes for accounts and tokens, and the Bearer/admin guards every other authenticated
 * route uses. Register with `app.register(accountRoutes, { accounts })` on the server from
 * `buildHttpServer`, whose error handler turns a thrown `VenueError` into the spec's envelope.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
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
import type { AccountService, Principal } from './account-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by {@link requireAccount} / {@link requireAdmin}. */
    principal?: Principal;
  }
}

export interface AccountRoutesOptions {
  accounts: AccountService;
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

export const accountRoutes: FastifyPluginAsync<AccountRoutesOptions> = async (app, { accounts }) => {
  const bearer = requireAccount(accounts);
  const admin = requireAdmin(accounts);

  app.post('/auth/token', async (req, reply): Promise<TokenResponse> => {
    const body = parse(tokenRequestCodec, req.body);
    const response = await accounts.login(body);
    void reply.header('cache-control', 'no-store');
    return response;
  });

  app.post('/auth/token/revoke', { preHandler: bearer }, async (req): Promise<RevokeResponse> => {
    return accounts.revoke(principalOf(req));
  });

  app.get('/account/settings', { preHandler: bearer }, async (req): Promise<AccountSettings> => {
    return accounts.getSettings(principalOf(req).accountId);
  });

  app.put('/account/settings', { preHandler: bearer }, async (req): Promise<AccountSettings> => {
    const body = parse(accountSettingsCodec, req.body);
    return accounts.putSettings(principalOf(req).accountId, body);
  });

  app.post('/admin/accounts', { preHandler: admin }, async (req, reply): Promise<CreatedAccountResponse> => {
    // Both fields are optional, so an absent body means `{}`.
    const body = parse(createAccountCodec, req.body === undefined ? {} : req.body);
    const created = await accounts.createAccount(body);
    void reply.code(201).header('cache-control', 'no-store');
    return created;
  });

  type ApiKeyParams = { Params: { api_key: string } };
  app.post<ApiKeyParams>(
    '/admin/accounts/:api_key/disable',
    { preHandler: admin },
    async (req): Promise<AccountStateResponse> => accounts.disable(req.params.api_key),
  );
  app.post<ApiKeyParams>(
    '/admin/accounts/:api_key/enable',
    { preHandler: admin },
    async (req): Promise<AccountStateResponse> => accounts.enable(req.params.api_key),
  );
  app.post<ApiKeyParams>(
    '/admin/accounts/:api_key/revoke-tokens',
    { preHandler: admin },
    async (req): Promise<AccountStateResponse> => accounts.revokeTokens(req.params.api_key),
  );
};
