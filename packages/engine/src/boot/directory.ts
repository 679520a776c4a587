/**
 * Start-up: where the venue's other engines are (DESIGN 11). A given `directory` is used as is;
 * with a PostgreSQL `store`, the engines directory there (`pg/engine-directory-pg.ts`, migrated
 * first) when the engine has a `publicUrl`, whose join also decides the signer set (a peer's key
 * only once the peer attested it: `attestation/peer-signers.ts`); otherwise none (one engine for
 * every market).
 */
import type { AttestationPlatform } from '../attestation/platform.js';
import { PeerSigners } from '../attestation/peer-signers.js';
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

/** What checking peers' keys needs of the engine: its platform (release, root), log and clock. */
export interface PeerCheckContext {
  platform: AttestationPlatform;
  warn: (fields: object, msg: string) => void;
  now: () => number;
}

function peerSigners(options: EngineOptions, c: PeerCheckContext): PeerSigners {
  const o = options.peerEngines ?? {};
  const rootCaDer = o.rootCa ?? c.platform.rootCa?.der;
  if (!rootCaDer) throw new Error('peerEngines.rootCa is required on a platform without a simulated root');
  return new PeerSigners({
    rootCaDer,
    composeHash: c.platform.composeHash,
    warn: c.warn,
    now: c.now,
    ...(o.fetchCollateral ? { fetchCollateral: o.fetchCollateral } : {}),
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
  });
}

export async function openEngineDirectory(
  options: EngineOptions,
  symbols: readonly string[],
  bootSession: string,
  peerCheck: PeerCheckContext,
): Promise<EngineDirectory> {
  if (options.directory) return { directory: options.directory, close: async () => {} };
  if (options.store === undefined || !isPostgresUrl(options.store)) return { close: async () => {} };
  // Without a public URL the engine cannot be listed: it shares the accounts only and must be the
  // venue's one engine (its signer set is then its own key). `nightjar start` always gives one.
  if (options.publicUrl === undefined) return { close: async () => {} };
  const peers = peerSigners(options, peerCheck);
  const pool: PgPool = openPgPool(options.store, { max: 3 });
  const directory = new PgEngineDirectory(pool, {
    baseUrl: options.publicUrl,
    symbols,
    bootSession,
    admitPeers: (rows) => peers.admit(rows),
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
