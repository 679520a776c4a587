/**
 * Start-up, first step: the data directory (never one another user made or may write to: its
 * files 0600, it 0700), the TEE platform (by default the simulated one, its PKI in
 * `<dataDir>/attestation`) and the accounts database (in memory without a data directory).
 */
import { join } from 'node:path';
import { openSqlite, type SqliteDb } from '@nightjar/ledger';
import { ensurePrivateDir, preparePrivateDatabase } from '@nightjar/protocol';
import { computeComposeHash } from '../attestation/compose-hash.js';
import type { AttestationPlatform } from '../attestation/platform.js';
import { SimulatedPlatform } from '../attestation/simulated-platform.js';
import type { EngineOptions } from '../engine-options.js';

export interface EngineStore {
  platform: AttestationPlatform;
  db: SqliteDb;
  attestationDir: string | undefined;
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
  const dbFile = options.dataDir ? join(options.dataDir, 'engine.sqlite') : undefined;
  if (dbFile) preparePrivateDatabase(dbFile);
  const db = openSqlite(dbFile ?? ':memory:');
  if (options.dataDir) db.pragma('journal_mode = WAL');
  return { platform, db, attestationDir };
}
