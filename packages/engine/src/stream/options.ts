/** The stream's limits: the spec's and DESIGN.md section 9's values unless a test asks for smaller ones. */
import {
  AUTH_EXPIRED_LEAD_MS,
  MAX_CLIENT_FRAME_BYTES,
  SOCKET_LIMITS,
  STREAM_BUFFER_MESSAGES,
  STREAM_HARD_PAYLOAD_BYTES,
  STREAM_IDLE_DROP_MS,
  STREAM_LOGIN_DEADLINE_MS,
} from '@nightjar/protocol';
import type { StreamClock } from './clock.js';

export interface StreamOptions {
  /** Logged-in sockets venue-wide; past it upgrades get 503 and logins 5001. Default 512. */
  maxSockets?: number;
  /**
   * Sockets not yet logged in, venue-wide, apart from `maxSockets` (so anonymous sockets never
   * lock traders out of the authenticated cap). When full it is shared between addresses
   * (anonymous-budget.ts): an address at its share gets 503. Default 128.
   */
  maxAnonymousSockets?: number;
  /** Sockets not yet logged in from one client address (IPv6: one /64); the next upgrade gets 429. Default 8. */
  maxAnonymousPerAddress?: number;
  /** Authenticated sockets per account; the next `login` gets 4290. Default 8. */
  maxPerAccount?: number;
  /** Frames a session may have waiting for its socket before it is closed with 1011. Default 1,024. */
  bufferLimit?: number;
  /** Bus events the fan-out may hold between event-loop turns; more are lost (and seen: 1011). */
  feedCapacity?: number;
  /** Order operations one socket may have in flight at once (bounds a session's memory). */
  maxInFlightPerSession?: number;
  /** Deadlines clock; by default real timers against the engine's `now`. */
  clock?: StreamClock;
  /** Benchmark hook: called with the ms from a bus event's publication to its frame's write callback. */
  onFrameSent?: (latencyMs: number) => void;
}

export interface StreamLimits {
  maxSockets: number;
  maxAnonymousSockets: number;
  maxAnonymousPerAddress: number;
  maxPerAccount: number;
  bufferLimit: number;
  feedCapacity: number;
  maxInFlightPerSession: number;
  loginDeadlineMs: number;
  idleDropMs: number;
  authExpiredLeadMs: number;
  /** Largest frame read as a request (16 KiB). */
  maxFrameBytes: number;
  /** Largest frame read at all (ws closes with 1009 beyond it, before buffering it). */
  hardPayloadBytes: number;
  /** How long a closing socket may take to finish the close handshake before it is destroyed. */
  closeGraceMs: number;
}

export const DEFAULT_FEED_CAPACITY = 65_536;
export const DEFAULT_MAX_ANONYMOUS_SOCKETS = 128;
export const DEFAULT_MAX_ANONYMOUS_PER_ADDRESS = 8;
export const DEFAULT_MAX_IN_FLIGHT_PER_SESSION = 32;

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`stream.${name} must be a positive integer`);
  return value;
}

export function resolveStreamLimits(options: StreamOptions = {}): StreamLimits {
  return {
    maxSockets: positive('maxSockets', options.maxSockets ?? SOCKET_LIMITS.total),
    maxAnonymousSockets: positive(
      'maxAnonymousSockets',
      options.maxAnonymousSockets ?? DEFAULT_MAX_ANONYMOUS_SOCKETS,
    ),
    maxAnonymousPerAddress: positive(
      'maxAnonymousPerAddress',
      options.maxAnonymousPerAddress ?? DEFAULT_MAX_ANONYMOUS_PER_ADDRESS,
    ),
    maxPerAccount: positive('maxPerAccount', options.maxPerAccount ?? SOCKET_LIMITS.perAccount),
    bufferLimit: positive('bufferLimit', options.bufferLimit ?? STREAM_BUFFER_MESSAGES),
    feedCapacity: positive('feedCapacity', options.feedCapacity ?? DEFAULT_FEED_CAPACITY),
    maxInFlightPerSession: positive(
      'maxInFlightPerSession',
      options.maxInFlightPerSession ?? DEFAULT_MAX_IN_FLIGHT_PER_SESSION,
    ),
    loginDeadlineMs: STREAM_LOGIN_DEADLINE_MS,
    idleDropMs: STREAM_IDLE_DROP_MS,
    authExpiredLeadMs: AUTH_EXPIRED_LEAD_MS,
    maxFrameBytes: MAX_CLIENT_FRAME_BYTES,
    hardPayloadBytes: STREAM_HARD_PAYLOAD_BYTES,
    closeGraceMs: 5_000,
  };
}
