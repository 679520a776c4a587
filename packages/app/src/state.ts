/**
 * The app's own state directory, `<data-dir>/app/` (mode 0700, every file 0600): the wallet
 * (`wallet.json`, encrypted with the random password in `wallet-password`), the trading account's
 * credentials (`credentials.json`; without it a dev venue's admin from ready.json), the bot API
 * token (`api-token`), and what the app remembers of its orders, fills and created accounts
 * (`orders.json`, `fills.json`, `accounts.json`: no secrets).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Credentials } from '@nightjar/sdk';

/** `<data-dir>/ready.json` as `nightjar start` writes it (DESIGN 10). */
export interface ReadyFile {
  base_url: string;
  ledger_url: string;
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

export function readReadyFile(dataDir: string, file = join(dataDir, 'ready.json')): ReadyFile {
  if (!existsSync(file))
    throw new Error(
      `no venue found: ${file} does not exist; start one with \`npm start\` (or pass --data-dir)`,
    );
  return JSON.parse(readFileSync(file, 'utf8')) as ReadyFile;
}

/** Writes a private file (0600) atomically, creating its directory (0700). */
export function writePrivate(path: string, text: string): void {
  mkdirSync(resolve(path, '..'), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** A secret kept in a 0600 file, made (random, 32 bytes base64url) when the file is missing. */
export function fileSecret(path: string): string {
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8').trim();
    if (text) return text;
  }
  const secret = randomBytes(32).toString('base64url');
  writePrivate(path, secret + '\n');
  return secret;
}

export class AppState {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
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

  /** Saved trading credentials, else the dev admin of ready.json; undefined when neither. */
  credentials(fallback: Credentials | undefined): Credentials | undefined {
    if (existsSync(this.credentialsFile))
      return JSON.parse(readFileSync(this.credentialsFile, 'utf8')) as Credentials;
    return fallback;
  }

  /** A JSON document of the app's memory (`orders.json`...), or `empty` when there is none. */
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
}
