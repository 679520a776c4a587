/**
 * The dev ledger's secret: what a caller of its dev-only methods (`dev_*`, `requestAirdrop`) over
 * JSON-RPC must show (methods.ts `DEV_SECRET_HEADER`), so that a web page or a rebound DNS name
 * reaching the port cannot use them. 32 random bytes, hex, in `<dataDir>/dev-secret` (0600, created
 * exclusively); a ledger without a data directory keeps one in memory.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { ensurePrivateDir, loadOrCreateSecretFile, readSecretFile } from '@nightjar/protocol';

export const DEV_SECRET_FILE = 'dev-secret';
const DEV_SECRET_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The secret of the ledger in `dataDir`, created on first use; a fresh one when there is no
 * directory. A directory or a file another user owns or may change is refused (28.3).
 */
export function loadOrCreateDevSecret(dataDir: string | undefined): string {
  if (dataDir === undefined) return randomBytes(32).toString('hex');
  ensurePrivateDir(dataDir);
  const path = join(dataDir, DEV_SECRET_FILE);
  return checked(
    path,
    loadOrCreateSecretFile(path, () => randomBytes(32).toString('hex') + '\n'),
  );
}

/** Reads a dev secret file (as `nightjar` tools do from a ledger's data directory). */
export function readDevSecret(path: string): string {
  const text = readSecretFile(path);
  if (text === undefined)
    throw new Error(`${path} does not exist: is the ledger started with this data directory?`);
  return checked(path, text);
}

function checked(path: string, text: string): string {
  const secret = text.trim();
  // Never echo the content: it is the secret (or something planted in its place).
  if (!DEV_SECRET_PATTERN.test(secret)) throw new Error(`${path} does not hold a dev secret (64 hex)`);
  return secret;
}

/** Whether `given` (a header value, maybe absent) is the secret; constant time in the secret. */
export function isDevSecret(secret: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  // Hashing first gives equal lengths, so the comparison leaks neither content nor length.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(secret), digest(given));
}
