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
