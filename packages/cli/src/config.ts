/**
 * Where the CLI finds the venue and keeps its own state. The venue comes from
 * `<data-dir>/ready.json` (`--data-dir`, `$NIGHTJAR_DATA_DIR`, default `./.nightjar`); credentials,
 * the wallet and nonces live in the config directory (`--home`, `$NIGHTJAR_HOME`, default
 * `<data-dir>/cli`), every file mode 0600.
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { readSecretFile, writeSecretFile } from '@nightjar/protocol';
import type { Credentials } from '@nightjar/sdk';
import { CliError, EXIT } from './exit-codes.js';

/** `<data-dir>/ready.json`, written by `nightjar start` once the venue answers. */
export interface Ready {
  base_url: string;
  /** The ledger's plain JSON-RPC URL (loopback when `nightjar start` serves it; the engine uses it). */
  ledger_url: string;
  /** The ledger over TLS, when it is served so (or `--ledger https://... --ledger-tls-pin HEX`). */
  ledger_tls_url?: string;
  /** SHA-256 (hex) of that certificate's SubjectPublicKeyInfo: what clients pin. */
  ledger_tls_spki_sha256?: string;
  boot_session_id: string;
  compose_hash: string;
  /** Path of the simulated platform's root CA certificate (DER); absent on dstack. */
  platform_root?: string;
  /** Dev mode only. */
  admin?: Credentials;
  /** Dev mode, the ledger started by `nightjar start`: its dev secret (the faucet needs it; the file is 0600). */
  ledger_dev_secret?: string;
  /** The trading app's one-time login URL (`nightjar start` without `--no-app`). */
  app_url?: string;
}

/**
 * How a client reaches the ledger: over TLS with the pinned certificate when ready.json names one,
 * else `ledger_url` (plain, on loopback, as `nightjar start` serves it).
 */
export function ledgerConnection(ready: Ready): { url: string; tls?: { spkiSha256: string } } {
  if (ready.ledger_tls_url && ready.ledger_tls_spki_sha256)
    return { url: ready.ledger_tls_url, tls: { spkiSha256: ready.ledger_tls_spki_sha256 } };
  return { url: ready.ledger_url };
}

export interface Paths {
  dataDir: string;
  home: string;
}

export function resolvePaths(opts: { 'data-dir'?: string | undefined; home?: string | undefined }): Paths {
  const dataDir = resolve(opts['data-dir'] ?? process.env.NIGHTJAR_DATA_DIR ?? '.nightjar');
  const home = resolve(opts.home ?? process.env.NIGHTJAR_HOME ?? join(dataDir, 'cli'));
  return { dataDir, home };
}

/** ready.json (a dev venue's admin credentials): read only when ours alone, never another user's. */
export function readReady(paths: Paths): Ready {
  const file = join(paths.dataDir, 'ready.json');
  const text = readSecretFile(file);
  if (text === undefined)
    throw new CliError(
      `no venue found: ${file} does not exist; start one with \`npm start\` (or pass --data-dir)`,
      EXIT.unreachable,
    );
  return JSON.parse(text) as Ready;
}

/**
 * Writes a private file (0600) atomically, in a config directory (0700) that must be ours and
 * writable by nobody else.
 */
export const writePrivate = writeSecretFile;

export const credentialsFile = (paths: Paths) => join(paths.home, 'credentials.json');
export const walletFile = (paths: Paths) => join(paths.home, 'wallet.json');
export const stateDir = (paths: Paths) => join(paths.home, 'state');

/** The CLI's saved trading credentials (`<home>/credentials.json`), if any. */
export function savedCredentials(paths: Paths): Credentials | undefined {
  const saved = readSecretFile(credentialsFile(paths));
  return saved === undefined ? undefined : (JSON.parse(saved) as Credentials);
}

/** Saved credentials, else the CLI cannot trade: a venue with no dev admin needs a login. */
export function notLoggedIn(): CliError {
  return new CliError(
    'not logged in: run `nightjar login --api-key K --api-secret S --passphrase P`',
    EXIT.auth,
  );
}

/**
 * The wallet password: `$NIGHTJAR_WALLET_PASSWORD`, else a random one kept in
 * `<home>/wallet-password` (0600) and made by `wallet init`.
 */
export function walletPassword(paths: Paths, create: boolean): string {
  const env = process.env.NIGHTJAR_WALLET_PASSWORD;
  if (env) return env;
  const file = join(paths.home, 'wallet-password');
  const saved = readSecretFile(file);
  if (saved !== undefined) return saved.trim();
  if (!create)
    throw new CliError(
      'no wallet password: set NIGHTJAR_WALLET_PASSWORD or run `nightjar wallet init`',
      EXIT.wallet,
    );
  const password = randomBytes(24).toString('base64url');
  writePrivate(file, password + '\n');
  return password;
}
