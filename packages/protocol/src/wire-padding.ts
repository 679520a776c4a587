/**
 * Size padding on the wire (issue 30, item 5). TLS hides content but not length: an order
 * placement was the only request near 1.8 kB and every other under 325 bytes, so its size alone
 * said "this trader just placed an order". Requests and stream frames are padded up to a few fixed
 * sizes, so one looks like every other message in its bucket.
 *
 * Padding is trailing JSON whitespace, which the grammar allows after any value and every parser
 * (the venue's `parseJsonExact` included) ignores: nothing the spec defines changes, and a peer
 * that does not pad stays interoperable.
 */

/**
 * Sizes of a whole HTTP/1.1 request (head and body) from the SDK. The smallest holds an order
 * placement (about 1.8 kB of body plus a bearer token), so placements, cancels, token requests and
 * reads share it; a modify (two orders) still fits. The largest equals the engine's body limit.
 */
export const REQUEST_SIZE_BUCKETS: readonly number[] = [4096, 8192, 16384];

/**
 * Sizes of a whole HTTP/1.1 response from the engine (status line, headers and body as written to
 * the socket). Measured unpadded (issue 30): a placement's answer 303 bytes, a modify's 359, a
 * cancel's 279, an order or a list of one open order 430 (each further order about 150), a token
 * 458, an instrument 550, `/info` 1,427, an inclusion path 1,748, the transport attestation
 * 20,465; errors under 400. So the smallest bucket holds every answer a trading session sends
 * (placements, cancels, reads, tokens, errors, a list of up to about ten open orders) and they
 * look alike; the attestation and the OpenAPI document take the larger ones, beyond the largest
 * the next multiple of it.
 */
export const RESPONSE_SIZE_BUCKETS: readonly number[] = [2048, 8192, 32768];

/** Header that pads a message without a body to pad (HTTP peers ignore headers they do not know). */
export const PAD_HEADER = 'x-pad';

/** A header's value as Node's HTTP layer takes it: an array is written once per element. */
export type HeaderValue = string | number | readonly string[];

/**
 * Bytes of an HTTP/1.1 head as Node writes it: the start line (request or status line) and CRLF,
 * `name: value` and CRLF for each header (each element of an array value), then CRLF.
 */
export function httpHeadBytes(
  startLine: string,
  headers: Iterable<readonly [string, HeaderValue | undefined]>,
): number {
  let n = Buffer.byteLength(startLine) + 2;
  for (const [name, value] of headers) {
    if (value === undefined) continue;
    const name_ = Buffer.byteLength(name) + 4;
    if (Array.isArray(value)) for (const v of value as readonly string[]) n += name_ + Buffer.byteLength(v);
    else n += name_ + Buffer.byteLength(String(value));
  }
  return n + 2;
}

/**
 * The value of a {@link PAD_HEADER} that brings a head of `headBytes` (without that header) plus
 * `bodyBytes` to a bucket size, or `undefined` when nothing fits (the message goes as it is).
 */
export function padHeaderValue(
  headBytes: number,
  bodyBytes: number,
  buckets: readonly number[],
  beyond: 'multiple' | 'none' = 'none',
): string | undefined {
  // `x-pad: ` plus filler plus CRLF: the filler fills what the message lacks of its bucket.
  const bare = headBytes + bodyBytes + PAD_HEADER.length + 4;
  const target = bucketFor(bare, buckets, beyond);
  return target === undefined ? undefined : '0'.repeat(target - bare);
}

/**
 * Sizes of a stream frame's payload, both ways. The smallest holds a fill push (a sealed memo)
 * as well as order, tree, pong and reply frames, so a fill looks like any other event. The
 * largest equals the engine's client-frame limit (`MAX_CLIENT_FRAME_BYTES`).
 */
export const FRAME_SIZE_BUCKETS: readonly number[] = [1024, 4096, 16384];

/**
 * The smallest bucket that holds `size` bytes; beyond the largest, the next multiple of it when
 * `beyond` is `'multiple'`, else `undefined` (the message is sent as it is).
 */
export function bucketFor(
  size: number,
  buckets: readonly number[],
  beyond: 'multiple' | 'none' = 'none',
): number | undefined {
  for (const b of buckets) if (size <= b) return b;
  const largest = buckets[buckets.length - 1];
  if (beyond === 'none' || largest === undefined) return undefined;
  return Math.ceil(size / largest) * largest;
}

/**
 * `json` followed by spaces so that `overhead + bytes(result)` is a bucket size (`overhead`: the
 * bytes that travel with it, such as an HTTP request's head). Unchanged when nothing fits.
 */
export function padJsonText(
  json: string,
  buckets: readonly number[],
  options: { overhead?: number; beyond?: 'multiple' | 'none' } = {},
): string {
  const overhead = options.overhead ?? 0;
  const size = overhead + Buffer.byteLength(json, 'utf8');
  const target = bucketFor(size, buckets, options.beyond);
  return target === undefined || target === size ? json : json + ' '.repeat(target - size);
}

/**
 * A JSON body padded so that its message (head of `headBytes(contentLength)` plus body) lands
 * on a bucket, where the head carries the body's `content-length`: its digits count, so they are
 * settled first (a bucket's body has as many digits as the padded body it replaces, mostly; three
 * rounds always settle it).
 */
export function padJsonBody(
  json: string,
  headBytes: (contentLength: string) => number,
  buckets: readonly number[],
  beyond: 'multiple' | 'none' = 'none',
): string {
  let digits = String(Buffer.byteLength(json)).length;
  let payload = json;
  for (let i = 0; i < 3; i++) {
    payload = padJsonText(json, buckets, { overhead: headBytes('0'.repeat(digits)), beyond });
    const length = String(Buffer.byteLength(payload)).length;
    if (length === digits) break;
    digits = length;
  }
  return payload;
}
