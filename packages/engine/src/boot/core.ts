/**
 * Start-up, the first phase: what every later step needs: the boot's identity (TLS certificate,
 * boot session), the data directory and platform, the accounts, the ledger views, the proof
 * checkers and the HTTPS server (not yet listening).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AccountService } from '../accounts/account-service.js';
import { loadTokenKey } from '../accounts/token-key.js';
import type { EngineOptions, RunningEngine } from '../engine-options.js';
import { buildHttpServer } from '../http/server.js';
import { generateBootCertificate, type BootCertificate } from '../tls.js';
import { openEngineDirectory, type EngineDirectory } from './directory.js';
import { followLedger, type LedgerViews } from './ledger-views.js';
import { openStore, type EngineStore } from './store.js';
import { startVerifiers, type Verifiers } from './verifiers.js';

export interface BootCore {
  now(): number;
  certificate: BootCertificate;
  bootSessionId: string;
  store: EngineStore;
  accounts: AccountService;
  devAdmin: RunningEngine['devAdmin'];
  views: LedgerViews;
  /** The venue's other engines and, with several, how the signer set is decided. */
  directory: EngineDirectory;
  verifiers: Verifiers;
  app: FastifyInstance;
}

export async function bootCore(options: EngineOptions): Promise<BootCore> {
  if (!options.dev && options.circuitKeys.dev_only)
    throw new Error(
      'a production engine (dev: false) refuses dev-ceremony circuit keys: load a real ceremony’s',
    );
  const now = options.now ?? Date.now;
  const certificate = await generateBootCertificate();
  const bootSessionId = randomBytes(32).toString('hex');
  const store = await openStore(options);
  const accounts =
    options.accountService ??
    (await AccountService.open({
      store: store.accounts,
      ...(store.sharedLimiters ? { loginLimiter: store.sharedLimiters.login } : {}),
      now,
      tokenKey: await loadTokenKey(store.platform, options.dataDir),
      ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
      ...(options.hasher === undefined ? {} : { hasher: options.hasher }),
      ...(options.loginRateLimit === undefined ? {} : { loginRateLimit: options.loginRateLimit }),
    }));
  const devAdmin = options.dev ? await accounts.ensureDevAdmin() : undefined;
  // The mirror's warnings go to the server's log, built below (they come only once it runs).
  const views = await followLedger(
    options.ledger,
    (msg, fields) => app.log.warn(fields ?? {}, msg),
    options.markets,
  );
  const directory = await openEngineDirectory(options, [...views.markets.own], bootSessionId, {
    platform: store.platform,
    warn: (fields, msg) => app.log.warn(fields, msg),
    now,
  });
  const verifiers = await startVerifiers(options);
  const app = buildHttpServer({
    certificate,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  return { now, certificate, bootSessionId, store, accounts, devAdmin, views, directory, verifiers, app };
}
