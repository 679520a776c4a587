/** `/v1/stream` frames: client requests (parsed here), server replies and channel events (typed). */
import { channelsCodec, orderIdCodec, type StreamChannel } from './bodies.js';
import type { ErrorCode, StreamErrorCode } from './errors.js';
import { parseJsonExact, JsonSyntaxError } from './json.js';
import { parseBody, type ParseResult } from './parse-body.js';
import type { SettlementOutcome } from './responses.js';
import {
  anyJson,
  anyOf,
  boolean,
  literal,
  object,
  optional,
  required,
  text,
  u64,
  type Codec,
  type InferObject,
} from './schema.js';

/** Largest client frame the venue reads; a place frame is about 2 KiB. */
export const MAX_CLIENT_FRAME_BYTES = 16 * 1024;
/**
 * Frames up to this size are read and refused with an `error` frame (1001) when over
 * {@link MAX_CLIENT_FRAME_BYTES}, keeping the socket; beyond it the socket closes with 1009 before
 * the frame is buffered.
 */
export const STREAM_HARD_PAYLOAD_BYTES = 32 * 1024;

const requestId = anyOf<string | bigint>(
  [text({ minLength: 1, maxLength: 128 }), u64()],
  'must be a string of at most 128 characters or an unsigned integer',
);
const envelope = { request_id: optional(requestId) };

export const streamRequestCodecs = {
  login: object({
    op: required(literal(['login'] as const)),
    ...envelope,
    token: required(text({ minLength: 1, maxLength: 512 })),
    cancel_on_disconnect: optional(boolean()),
  }),
  subscribe: object({
    op: required(literal(['subscribe'] as const)),
    ...envelope,
    channels: required(channelsCodec),
  }),
  unsubscribe: object({
    op: required(literal(['unsubscribe'] as const)),
    ...envelope,
    channels: required(channelsCodec),
  }),
  'order.place': object({
    op: required(literal(['order.place'] as const)),
    ...envelope,
    params: required(anyJson('A place-order body.')),
  }),
  'order.cancel': object({
    op: required(literal(['order.cancel'] as const)),
    ...envelope,
    order_id: required(orderIdCodec),
    params: required(anyJson('A cancel body.')),
  }),
  'order.modify': object({
    op: required(literal(['order.modify'] as const)),
    ...envelope,
    order_id: required(orderIdCodec),
    params: required(anyJson('A modify body.')),
  }),
  ping: object({ op: required(literal(['ping'] as const)), ...envelope }),
  logout: object({ op: required(literal(['logout'] as const)), ...envelope }),
} as const;

type Codecs = typeof streamRequestCodecs;
export type StreamOp = keyof Codecs;
export type StreamRequest = { [K in StreamOp]: InferObject<Codecs[K]['props']> }[StreamOp];

function isStreamOp(op: unknown): op is StreamOp {
  return typeof op === 'string' && Object.hasOwn(streamRequestCodecs, op);
}

/**
 * Parses one client text frame. Failures carry 1001 and, when it could be read, the frame's
 * `request_id` so the error reply can echo it.
 */
export function parseStreamRequest(
  data: string,
): ParseResult<StreamRequest> & { request_id?: string | bigint } {
  if (data.length > MAX_CLIENT_FRAME_BYTES) return { ok: false, code: 1001, message: 'frame too large' };
  let raw: unknown;
  try {
    raw = parseJsonExact(data);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { ok: false, code: 1001, message: 'frame is not valid JSON' };
    throw err;
  }
  const obj =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)
      : undefined;
  let echo: string | bigint | undefined;
  try {
    echo = obj && 'request_id' in obj ? requestId.parse(obj.request_id) : undefined;
  } catch {
    echo = undefined;
  }
  if (!obj || !isStreamOp(obj.op)) {
    return {
      ok: false,
      code: 1001,
      message: 'op: must be a known operation',
      ...(echo === undefined ? {} : { request_id: echo }),
    };
  }
  const parsed = parseBody(streamRequestCodecs[obj.op] as unknown as Codec<StreamRequest>, obj);
  return parsed.ok || echo === undefined ? parsed : { ...parsed, request_id: echo };
}

/* Server → client frames. Every frame carries the per-connection `seq`, starting at 1. */

export interface ReplyFrame<R = unknown> {
  op: 'order.place' | 'order.cancel' | 'order.modify' | 'login' | 'subscribe' | 'unsubscribe' | 'logout';
  seq: number;
  request_id?: string | bigint;
  result: R;
}
export interface PongFrame {
  op: 'pong';
  seq: number;
  request_id?: string | bigint;
}
export interface AuthExpiredFrame {
  op: 'auth_expired';
  seq: number;
  /** Unix ms at which the session's token expires. */
  expires_at: number;
}
/** `login`'s reply result (DESIGN.md section 9). */
export interface LoginResult {
  account_id: string;
  /** Unix ms at which the session's token expires. */
  expires_at: number;
}
/** `subscribe` and `unsubscribe` reply result: the session's channels after the change. */
export interface SubscriptionResult {
  channels: StreamChannel[];
}

/**
 * Close codes of `/v1/stream` (the spec fixes 1011; the rest are the venue's, see
 * docs/api-guide.md). An auth close is always preceded by an `error` frame with the REST code.
 */
export const STREAM_CLOSE_CODES = {
  /** `logout`. */
  normal: 1000,
  /** The engine is stopping. */
  goingAway: 1001,
  /** A text frame that is not UTF-8 (RFC 6455 requires failing the connection). */
  invalidUtf8: 1007,
  /** A frame beyond the hard payload cap (the 16 KiB limit answers 1001 in an `error` frame up to it). */
  tooBig: 1009,
  /** Events may have been missed: a slow consumer, a fan-out loss, a tree shard rebuilt. */
  eventsMissed: 1011,
  /** The token expired, was revoked or was invalidated by an operator (after `error` 1101). */
  tokenInvalid: 4401,
  /** The account was suspended (after `error` 1150); do not reconnect. */
  suspended: 4403,
  /** No `login` within 10 s of opening, or silent for more than 60 s. */
  timeout: 4408,
} as const;

export interface ErrorFrame {
  op: 'error';
  seq: number;
  request_id?: string | bigint;
  code: ErrorCode | StreamErrorCode;
  message: string;
}

export const ORDER_EVENT_KINDS = [
  'pending_settlement',
  'partially_filled',
  'fully_filled',
  'settlement_failed',
  'cancelled',
  'expired',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];
export const TERMINAL_ORDER_EVENTS: ReadonlySet<OrderEventKind> = new Set([
  'fully_filled',
  'settlement_failed',
  'cancelled',
  'expired',
]);

export interface OrderEvent {
  channel: 'orders';
  seq: number;
  order_id: string;
  market_id: string;
  match_id?: string;
  /** Events of a match carry its settlement batch (DESIGN.md section 9). */
  batch_id?: bigint;
  server_time_ms: number;
  kind: OrderEventKind;
  filled_quantity?: bigint;
  new_amount?: bigint;
  new_note_amount?: bigint;
  reason?: string;
  lock_expiry_slot?: bigint;
}

/** Encrypted continuation memo for one party of a confirmed match (DESIGN.md section 7). */
export interface FillEvent {
  channel: 'fills';
  seq: number;
  order_id: string;
  market_id: string;
  match_id: string;
  batch_id: bigint;
  outcome: Extract<SettlementOutcome, 'confirmed'>;
  tree_id: number;
  /** eph_pub ‖ ciphertext ‖ tag, hex. */
  memo: string;
  server_time_ms: number;
}

/** One leaf appended to a shard. */
export interface TreeEvent {
  channel: 'tree';
  seq: number;
  tree_id: number;
  leaf_index: bigint;
  value: string;
  merkle_root: string;
  slot: bigint;
}

export type StreamEvent = OrderEvent | FillEvent | TreeEvent;
export type ServerFrame = ReplyFrame | PongFrame | AuthExpiredFrame | ErrorFrame | StreamEvent;
export type { StreamChannel };
