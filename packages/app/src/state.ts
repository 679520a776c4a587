/**
 * The app's own state directory, `<data-dir>/app/` (mode 0700, every file 0600): the wallet
 * (`wallet.json`, encrypted with the random password in `wallet-password`), the trading account's
 * credentials (`credentials.json`; on a dev venue without it, an `app` account made with the dev
 * admin of ready.json at the first connection and saved there), the bot API
 * token (`api-token`), and the accounts the app created (`accounts.json`: no secrets). Orders and
 * fills are the wallet's (`orders.json` and `fills.json` of older versions are migrated into it
 * once and renamed `*.migrated`: trading/migrate-memory.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import {
  ensurePrivateDir,
  loadOrCreateSecretFile,
  readSecretFile,
  writeSecretFile,
} from '@nightjar/protocol';
import type { Credentials } from '@nightjar/sdk';

/** `<data-dir>/ready.json` as `nightjar start` writes it (DESIGN 10). */
export interface ReadyFile {
  base_url: string;
  ledger_url: string;
  /** The ledger over TLS and its certificate's SPKI SHA-256 (the app uses these when present). */
  ledger_tls_url?: string;
  ledger_tls_spki_sha256?: string;
  boot_session_id?: string;
  compose_hash: string;
  /** Path of the simulated platform's root certificate (DER). */
  platform_root?: string;
  /** Dev mode only. */
  admin?: Credentials;
  /** Dev mode: the ledger's dev secret, which its faucet needs. */
  ledger_dev_secret?: string;
  app_url?: string;
}

/** ready.json carries a dev venue's admin credentials: read only when ours alone (0600). */
export function readReadyFile(dataDir: string, file = join(dataDir, 'ready.json')): ReadyFile {
  const text = readSecretFile(file);
  if (text === undefined)
    throw new Error(
      `no venue found: ${file} does not exist; start one with \`npm start\` (or pass --data-dir)`,
    );
  return JSON.parse(text) as ReadyFile;
}

/** Writes a private file (0600) atomically, creating its directory (0700). */
export const writePrivate = writeSecretFile;

/**
 * A secret kept in a 0600 file of ours, made (random, 32 bytes base64url) when the file is
 * missing; one another user planted, or made readable to others, is refused.
 */
export function fileSecret(path: string): string {
  const text = loadOrCreateSecretFile(path, () => randomBytes(32).toString('base64url') + '\n').trim();
  if (!text) throw new Error(`${path} is empty; remove it to make a new secret`);
  return text;
}

export class AppState {
  /** Refuses a directory another user owns or may write to (see `ensurePrivateDir`). */
  constructor(readonly dir: string) {
    ensurePrivateDir(dir);
  }

  get walletFile(): string {
    return join(this.dir, 'wallet.json');
  }
  get walletPasswordFile(): string {
    return join(this.dir, 'wallet-password');
  }
  get credentialsFile(): string {
    return join(this.dir, 'credentials.json');
  }
  get apiTokenFile(): string {
    return join(this.dir, 'api-token');
  }
  /** Nonce store of the SDK client. */
  get sdkStateDir(): string {
    return join(this.dir, 'state');
  }

  walletPassword(): string {
    return fileSecret(this.walletPasswordFile);
  }

  /** The bot API token: `<state>/api-token` (0600), made at the first start and kept. */
  apiToken(): string {
    return fileSecret(this.apiTokenFile);
  }

  /** The saved trading credentials (`credentials.json`), if any. */
  credentials(): Credentials | undefined {
    const saved = readSecretFile(this.credentialsFile);
    return saved === undefined ? undefined : (JSON.parse(saved) as Credentials);
  }

  /** Keeps the trading credentials (0600, in the state directory, 0700). */
  saveCredentials(credentials: Credentials): void {
    writeSecretFile(this.credentialsFile, JSON.stringify(credentials) + '\n');
  }

  /** A JSON document of the app's memory (`accounts.json`...), or `empty` when there is none. */
  load<T>(name: string, empty: T): T {
    const file = join(this.dir, name);
    if (!existsSync(file)) return empty;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      return empty;
    }
  }

  save(name: string, value: unknown): void {
    writePrivate(join(this.dir, name), JSON.stringify(value, null, 1) + '\n');
  }

  /** Sets a document aside as `<name>.migrated` once its content lives elsewhere. */
  retire(name: string): void {
    const file = join(this.dir, name);
    if (existsSync(file)) renameSync(file, `${file}.migrated`);
  }
}
