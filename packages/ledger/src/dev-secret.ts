/**
 * The dev ledger's secret: what a caller of its dev-only methods (`dev_*`, `requestAirdrop`) over
 * JSON-RPC must show (methods.ts `DEV_SECRET_HEADER`), so that a web page or a rebound DNS name
 * reaching the port cannot use them. 32 random bytes, hex, in `<dataDir>/dev-secret` (0600, created
 * exclusively); a ledger without a data directory keeps one in memory.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const DEV_SECRET_FILE = 'dev-secret';
const DEV_SECRET_PATTERN = /^[0-9a-f]{64}$/;

/** The secret of the ledger in `dataDir`, created on first use; a fresh one when there is no directory. */
export function loadOrCreateDevSecret(dataDir: string | undefined): string {
  if (dataDir === undefined) return randomBytes(32).toString('hex');
  const path = join(dataDir, DEV_SECRET_FILE);
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readDevSecret(path);
    throw err;
  }
  const secret = randomBytes(32).toString('hex');
  try {
    writeSync(fd, secret + '\n');
  } finally {
    closeSync(fd);
  }
  return secret;
}

/** Reads a dev secret file (as `nightjar` tools do from a ledger's data directory). */
export function readDevSecret(path: string): string {
  const secret = readFileSync(path, 'utf8').trim();
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
