/**
 * Per source address limits on the JSON-RPC: a token bucket per address (an IPv6 client per /64,
 * which is what one host usually holds). A call pays up front for the rows it asks for (so a call
 * the bucket cannot pay never runs) and gets back what it did not read (a wallet asking for
 * 10,000 memos at the chain's tip reads a few). One address reading full pages as fast as it can
 * then waits for its bucket; everyone else's calls (a deposit, a wallet's sync) are not refused.
 */
import { addressKey } from '@nightjar/protocol';
import type { LedgerMethodName } from '@nightjar/protocol/ledger-client';

export interface RateLimit {
  /** Tokens a bucket holds: the burst an address may spend at once. */
  capacity: number;
  /** Tokens added per second, up to `capacity`. */
  refillPerSecond: number;
}

/**
 * Ten pages of 2,048 leaves at once, then five a second (10,240 leaves a second): a wallet or an
 * engine syncing a large tree pages at that pace (RpcLedgerClient waits and retries a refused
 * call), a flood of readers is refused cheaply instead of answered.
 */
export const DEFAULT_RATE_LIMIT: RateLimit = { capacity: 20_480, refillPerSecond: 10_240 };
/** Buckets kept at most; beyond it the oldest are forgotten (a full bucket is a forgotten one). */
const MAX_BUCKETS = 65_536;

/** What one call pays up front: the rows it may return (a call is at least 1). */
export function callCost(method: LedgerMethodName, params: unknown, caps: ReadCaps): number {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const span = (cap: number) =>
    typeof p.from === 'number' && typeof p.to === 'number' && p.to > p.from
      ? Math.min(p.to - p.from, cap)
      : 1;
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 1);
  switch (method) {
    case 'getLeaves':
      return span(caps.leaves);
    case 'getMemos':
      return span(caps.memos);
    case 'getDeposits':
      return caps.deposits;
    case 'getBlock':
      return caps.blockRows;
    case 'getNoteStatuses':
      return Math.max(1, count(p.nullifiers));
    case 'getSignatureStatuses':
      return Math.max(1, count(p.signatures));
    default:
      return 1;
  }
}

/** The rows a call's result holds (what it really cost), or undefined for a call that is not a read of rows. */
export function rowsRead(method: LedgerMethodName, result: unknown): number | undefined {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const length = (list: unknown) => (Array.isArray(list) ? list.length : undefined);
  switch (method) {
    case 'getLeaves':
      return length(r.leaves);
    case 'getMemos':
      return length(r.memos);
    case 'getDeposits':
      return length(r.deposits);
    case 'getBlock':
      return length(r.transactions);
    case 'getNoteStatuses':
    case 'getSignatureStatuses':
      return length(result);
    default:
      return undefined;
  }
}

/** The page caps the costs are measured in. */
export interface ReadCaps {
  leaves: number;
  memos: number;
  deposits: number;
  /** A block's rows are not known before it is read: charged as this many. */
  blockRows: number;
}

export class AddressBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes `cost` tokens from the address's bucket; false (taking nothing) if it holds fewer. */
  take(address: string, cost: number): boolean {
    const key = addressKey(address);
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.capacity, at: now };
    const elapsed = Math.max(0, now - bucket.at) / 1000;
    bucket.tokens = Math.min(this.limit.capacity, bucket.tokens + elapsed * this.limit.refillPerSecond);
    bucket.at = now;
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens < cost) return false;
    bucket.tokens -= cost;
    return true;
  }

  /** Gives back tokens a call took but did not use (up to the capacity). */
  refund(address: string, tokens: number): void {
    const bucket = this.buckets.get(addressKey(address));
    if (bucket && tokens > 0) bucket.tokens = Math.min(this.limit.capacity, bucket.tokens + tokens);
  }
}
