/** Venue limits fixed by the spec and DESIGN.md section 9. */
export const API_VERSION = '4.1.0';
export const ORDER_DOMAIN = 'venue-order-v5';
export const CANCEL_DOMAIN = 'venue-cancel-v1';

export const MAX_ORDER_LIFETIME_SLOTS = 4500n;
export const SETTLEMENT_BUFFER_SLOTS = 20n;
export const LOCK_TTL_CEILING_SLOTS = 4500n;
export const RECENT_ROOT_HISTORY = 64;
export const TREE_DEPTH = 20;
export const LEAVES_PAGE_CAP = 10_000;
export const MAX_SYMBOL_LENGTH = 32;
export const MAX_TREE_SHARDS = 256;
export const MAX_TOKEN_TTL_SECONDS = 3600;
export const MAX_SETTLEMENT_BATCH_MATCHES = 16;

export const RATE_LIMIT = {
  capacity: 40,
  refillPerSecond: 20,
  cost: { place: 1.0, modify: 1.2, cancel: 0.2, read: 0.1 },
} as const;

export const SOCKET_LIMITS = { total: 512, perAccount: 8 } as const;
export const STREAM_BUFFER_MESSAGES = 1024;
export const STREAM_LOGIN_DEADLINE_MS = 10_000;
export const STREAM_IDLE_DROP_MS = 60_000;
export const AUTH_EXPIRED_LEAD_MS = 60_000;
