/**
 * Server frames as text. Channel events are serialized once per bus event and shared by every
 * recipient: only the per-connection `seq` differs, so a frame is a prefix, the seq and the tail.
 */
import { stringifyJson, type ErrorFrame, type ReplyFrame, type StreamChannel } from '@nightjar/protocol';

export type RequestId = string | bigint | undefined;

export function replyFrame(op: ReplyFrame['op'], seq: number, requestId: RequestId, result: unknown): string {
  return stringifyJson({ op, seq, ...(requestId === undefined ? {} : { request_id: requestId }), result });
}

export function errorFrame(
  seq: number,
  requestId: RequestId,
  code: ErrorFrame['code'],
  message: string,
): string {
  return stringifyJson({
    op: 'error',
    seq,
    ...(requestId === undefined ? {} : { request_id: requestId }),
    code,
    message,
  });
}

export function pongFrame(seq: number, requestId: RequestId): string {
  return stringifyJson({ op: 'pong', seq, ...(requestId === undefined ? {} : { request_id: requestId }) });
}

export function authExpiredFrame(seq: number, expiresAt: number): string {
  return stringifyJson({ op: 'auth_expired', seq, expires_at: expiresAt });
}

/** `{"channel":"orders","seq":` and so on: what every event frame of a channel starts with. */
export const CHANNEL_PREFIX: Record<StreamChannel, string> = {
  orders: '{"channel":"orders","seq":',
  fills: '{"channel":"fills","seq":',
  tree: '{"channel":"tree","seq":',
};

/** An event body without its opening brace (`"order_id":…}`), to follow `prefix + seq + ','`. */
export function eventTail(body: object): string {
  const json = stringifyJson(body);
  if (json.length < 3 || json[0] !== '{') throw new TypeError('an event body must be a non-empty object');
  return json.slice(1);
}

export function eventFrame(channel: StreamChannel, seq: number, tail: string): string {
  return CHANNEL_PREFIX[channel] + seq + ',' + tail;
}
