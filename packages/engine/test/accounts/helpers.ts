/**
 * A venue with only the account routes, over real HTTPS, with an injectable clock and cheap
 * Argon2 parameters. Every response is checked for `x-request-id`.
 */
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { CreatedAccountResponse } from '@nightjar/protocol';
import {
  AccountService,
  CredentialHasher,
  type AccountServiceOptions,
  type CredentialHasherOptions,
} from '../../src/accounts/index.js';
import {
  accountHandlers,
  principalOf,
  requireAccount,
  requireAdmin,
} from '../../src/http/routes/accounts.js';
import { SqliteAccountStore } from '../../src/accounts/sqlite-store.js';
import { registerRoutes } from '../../src/http/register-routes.js';
import { buildHttpServer } from '../../src/http/server.js';
import type { BootCertificate } from '../../src/tls.js';
import { HttpsClient, type HttpsResponse, type RequestOptions } from '@nightjar/testkit';

/** Cheap Argon2id for tests (production uses OWASP's m=19456, t=2, p=1). */
export const CHEAP_ARGON2: CredentialHasherOptions = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** 2025-06-15T16:00:00.250Z: a quarter second into a whole second, so second boundaries are explicit. */
export const T0 = 1_750_003_200_250;

export class ManualClock {
  constructor(public ms: number = T0) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

/**
 * Counts verifications and, while closed, holds every one of them before any hashing starts,
 * so tests can observe the capacity bound without racing the hash.
 */
export class GatedHasher extends CredentialHasher {
  verifyCalls = 0;
  waiting = 0;
  private gate: Promise<void> = Promise.resolve();
  private release: () => void = () => {};

  close(): void {
    this.gate = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  open(): void {
    this.release();
  }

  protected override async verifyOne(hash: string, secret: string): Promise<boolean> {
    this.verifyCalls++;
    this.waiting++;
    await this.gate;
    this.waiting--;
    return super.verifyOne(hash, secret);
  }
}

export interface Venue {
  app: FastifyInstance;
  accounts: AccountService;
  client: HttpsClient;
  clock: ManualClock;
  db: Database.Database;
  /** Sends a request and asserts the response carries `x-request-id`. */
  call: HttpsClient['send'];
  close(): Promise<void>;
}

export interface VenueOptions extends Partial<Omit<AccountServiceOptions, 'store' | 'now'>> {
  certificate: BootCertificate;
  db?: Database.Database;
  clock?: ManualClock;
  /** Leave the database open on close (restart tests). */
  keepDb?: boolean;
}

export async function startVenue(options: VenueOptions): Promise<Venue> {
  const clock = options.clock ?? new ManualClock();
  const db = options.db ?? new Database(':memory:');
  const accounts = await AccountService.open({
    tokenTtlSeconds: options.tokenTtlSeconds,
    loginRateLimit: options.loginRateLimit,
    hasher: options.hasher ?? CHEAP_ARGON2,
    ...(options.tokenKey ? { tokenKey: options.tokenKey } : {}),
    store: new SqliteAccountStore(db),
    now: clock.now,
  });
  const app = buildHttpServer({ certificate: options.certificate });
  const unmetered = () => {};
  registerRoutes(
    app,
    {
      requireAccount: requireAccount(accounts),
      requireAdmin: requireAdmin(accounts),
      admit: unmetered,
      chargeAddress: unmetered,
    },
    accountHandlers(accounts),
  );
  // How the lead's other routes use the guards.
  app.get('/probe', { preHandler: requireAccount(accounts) }, async (req) => {
    const p = principalOf(req);
    return { account_id: p.accountId, api_key: p.apiKey, is_admin: p.isAdmin };
  });
  app.get('/admin/probe', { preHandler: requireAdmin(accounts) }, async (req) => ({
    account_id: principalOf(req).accountId,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const client = new HttpsClient(`https://127.0.0.1:${address.port}`, options.certificate.certPem);
  return {
    app,
    accounts,
    client,
    clock,
    db,
    async call(path: string, requestOptions?: RequestOptions) {
      const res = await client.send(path, requestOptions);
      const id = res.headers['x-request-id'];
      expect(typeof id === 'string' && id.length > 0, `x-request-id on ${path}`).toBe(true);
      return res;
    },
    async close() {
      client.close();
      await app.close();
      if (!options.keepDb) db.close();
    },
  };
}

export interface Credentials {
  api_key: string;
  api_secret: string;
  passphrase: string;
}

/** Logs in and returns the token, asserting success. */
export async function loginOk(venue: Venue, creds: Credentials): Promise<string> {
  const res = await venue.call('/auth/token', { body: pick(creds) });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

export function pick(creds: Credentials): Credentials {
  return { api_key: creds.api_key, api_secret: creds.api_secret, passphrase: creds.passphrase };
}

/** The dev admin's credentials and a token for it. */
export async function bootstrapAdmin(
  venue: Venue,
): Promise<{ creds: CreatedAccountResponse; token: string }> {
  const creds = await venue.accounts.ensureDevAdmin();
  if (creds === undefined) throw new Error('an admin already exists');
  return { creds, token: await loginOk(venue, creds) };
}

/** Creates an account over HTTP with the admin token. */
export async function createAccount(
  venue: Venue,
  adminToken: string,
  body: { is_admin?: boolean; label?: string } = {},
): Promise<CreatedAccountResponse> {
  const res = await venue.call('/admin/accounts', { token: adminToken, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export function expectError(
  res: HttpsResponse,
  status: number,
  code: number,
  message?: string | RegExp,
): void {
  expect(res.status, res.text).toBe(status);
  const body = res.body as { code?: unknown; message?: unknown };
  expect(['number', 'bigint']).toContain(typeof body.code);
  expect(Number(body.code)).toBe(code);
  expect(typeof body.message).toBe('string');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}
