/**
 * Durable nonces: `arrival_nonce` and `cancel_nonce` per trading key, kept in a small JSON file
 * that is written (temp file, fsync, rename) before a nonce is handed out. A restarted client
 * reads the file and continues above the last nonce it ever used, so it never reuses one.
 * Without a file the store is memory-only and starts from the wall clock in microseconds, which
 * still only increases across restarts as long as the clock does.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir } from '@nightjar/protocol';

/** The two per-key counters of the spec. */
export type NonceKind = 'arrival' | 'cancel';

/** Where nonces are kept. */
export interface NonceStore {
  /** The next nonce of `kind` for `tradingKey`, already persisted when it resolves. */
  next(tradingKey: string, kind: NonceKind): bigint;
  /** The last nonce handed out (0 when none). */
  last(tradingKey: string, kind: NonceKind): bigint;
}

type Counters = Record<string, { arrival: string; cancel: string }>;

/** A nonce store backed by `path` (created when missing). */
export function fileNonceStore(path: string): NonceStore {
  let counters: Counters = {};
  try {
    counters = JSON.parse(readFileSync(path, 'utf8')) as Counters;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const persist = () => {
    // Private like the rest of the state (0700): the venue's data directory has no other kind.
    ensurePrivateDir(dirname(path));
    const tmp = `${path}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(counters));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  };
  return {
    next(tradingKey, kind) {
      const entry = (counters[tradingKey] ??= { arrival: '0', cancel: '0' });
      const n = BigInt(entry[kind]) + 1n;
      entry[kind] = n.toString();
      persist();
      return n;
    },
    last(tradingKey, kind) {
      return BigInt(counters[tradingKey]?.[kind] ?? '0');
    },
  };
}

/** A memory-only store starting above the wall clock in microseconds (see the module comment). */
export function memoryNonceStore(now: () => number = Date.now): NonceStore {
  const counters = new Map<string, bigint>();
  return {
    next(tradingKey, kind) {
      const key = `${tradingKey}:${kind}`;
      const floor = BigInt(now()) * 1000n;
      const prev = counters.get(key) ?? 0n;
      const n = prev >= floor ? prev + 1n : floor;
      counters.set(key, n);
      return n;
    },
    last(tradingKey, kind) {
      return counters.get(`${tradingKey}:${kind}`) ?? 0n;
    },
  };
}
