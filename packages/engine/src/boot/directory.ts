/**
 * Start-up: where the venue's other engines are (DESIGN 11). A given `directory` is used as is;
 * with a PostgreSQL `store`, the engines directory there (`pg/engine-directory-pg.ts`, migrated
 * first) when the engine has a `publicUrl`, whose join also decides the signer set; otherwise none
 * (one engine for every market).
 */
import type { EngineOptions } from '../engine-options.js';
import type { MarketDirectory } from '../market-directory.js';
import { PgEngineDirectory } from '../pg/engine-directory-pg.js';
import { migrate } from '../pg/migrate.js';
import { isPostgresUrl, openPgPool, type PgPool } from '../pg/pool.js';
import type { SignerSetScope } from '../settlement/signer-registration.js';

export interface EngineDirectory {
  directory?: MarketDirectory;
  /** With the PostgreSQL directory: the signer set is its engines' keys, decided under its lock. */
  signerSetScope?: SignerSetScope;
  close(): Promise<void>;
}

export async function openEngineDirectory(
  options: EngineOptions,
  symbols: readonly string[],
  bootSession: string,
): Promise<EngineDirectory> {
  if (options.directory) return { directory: options.directory, close: async () => {} };
  if (options.store === undefined || !isPostgresUrl(options.store)) return { close: async () => {} };
  // Without a public URL the engine cannot be listed: it shares the accounts only and must be the
  // venue's one engine (its signer set is then its own key). `nightjar start` always gives one.
  if (options.publicUrl === undefined) return { close: async () => {} };
  const pool: PgPool = openPgPool(options.store, { max: 3 });
  const directory = new PgEngineDirectory(pool, {
    baseUrl: options.publicUrl,
    symbols,
    bootSession,
    ...(options.engineDirectory ?? {}),
  });
  try {
    await migrate(pool);
    await directory.checkSymbols();
  } catch (err) {
    await pool.end();
    throw err;
  }
  return {
    directory,
    signerSetScope: (own, register) => directory.join(own, register),
    close: async () => {
      await directory.close();
      await pool.end();
    },
  };
}
