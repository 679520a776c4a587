/**
 * Start-up, first step: the data directory (never one another user made or may write to: its
 * files 0600, it 0700), the TEE platform (by default the simulated one, its PKI in
 * `<dataDir>/attestation`) and the account store: the SQLite file (in memory without a data
 * directory) or, with `store: postgres://…`, PostgreSQL shared with other engines (migrated here),
 * which then also holds the per-account order and login buckets.
 */
import { join } from 'node:path';
import { openSqlite } from '@nightjar/ledger';
import { ensurePrivateDir, preparePrivateDatabase, RATE_LIMIT } from '@nightjar/protocol';
import { DEFAULT_LOGIN_RATE_LIMIT } from '../accounts/account-service.js';
import { PgAccountStore } from '../accounts/pg-store.js';
import { SqliteAccountStore } from '../accounts/sqlite-store.js';
import type { AccountStore } from '../accounts/store.js';
import { computeComposeHash } from '../attestation/compose-hash.js';
import type { AttestationPlatform } from '../attestation/platform.js';
import { SimulatedPlatform } from '../attestation/simulated-platform.js';
import type { EngineOptions } from '../engine-options.js';
import type { AccountLimiter } from '../limits/account-limiter.js';
import { PgRateLimiter } from '../limits/pg-rate-limiter.js';
import { PgHealth } from '../pg/health.js';
import { migrate } from '../pg/migrate.js';
import { openPgPool } from '../pg/pool.js';

export interface EngineStore {
  platform: AttestationPlatform;
  accounts: AccountStore;
  /** The buckets every engine shares (PostgreSQL only; otherwise each engine keeps its own). */
  sharedLimiters?: { order: AccountLimiter; login: AccountLimiter };
  attestationDir: string | undefined;
  /** Closes the store's connections or file (after the account service stops using it). */
  close(): Promise<void>;
}

export async function openStore(options: EngineOptions): Promise<EngineStore> {
  if (options.dataDir) ensurePrivateDir(options.dataDir);
  const attestationDir = options.dataDir ? join(options.dataDir, 'attestation') : undefined;
  const platform =
    options.attestation?.platform ??
    (await SimulatedPlatform.open({
      dir: attestationDir,
      composeHash: computeComposeHash(),
      ...(options.attestation?.pkiDir === undefined ? {} : { pkiDir: options.attestation.pkiDir }),
    }));
  if (options.store !== undefined) return { platform, attestationDir, ...(await openPgStore(options)) };
  const dbFile = options.dataDir ? join(options.dataDir, 'engine.sqlite') : undefined;
  if (dbFile) preparePrivateDatabase(dbFile);
  const db = openSqlite(dbFile ?? ':memory:');
  if (options.dataDir) db.pragma('journal_mode = WAL');
  return {
    platform,
    attestationDir,
    accounts: new SqliteAccountStore(db),
    close: async () => void db.close(),
  };
}

async function openPgStore(
  options: EngineOptions,
): Promise<Pick<EngineStore, 'accounts' | 'sharedLimiters' | 'close'>> {
  const url = options.store!;
  const pool = openPgPool(url);
  await migrate(pool);
  const health = new PgHealth();
  const accounts = new PgAccountStore(pool, url, health);
  const now = options.now ?? Date.now;
  const limiter = (bucket: string, limits: { capacity: number; refillPerSecond: number }) =>
    new PgRateLimiter(pool, health, {
      bucket,
      capacity: limits.capacity,
      refillPerSecond: limits.refillPerSecond,
      now,
    });
  return {
    accounts,
    sharedLimiters: {
      order: limiter('order', options.orderRateLimit ?? RATE_LIMIT),
      login: limiter('login', options.loginRateLimit ?? DEFAULT_LOGIN_RATE_LIMIT),
    },
    close: async () => {
      await accounts.close();
      await pool.end();
    },
  };
}
