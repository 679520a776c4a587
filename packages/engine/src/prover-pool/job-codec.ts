/**
 * The JSON form of what travels through the prover queue (witness parameters one way, proofs the
 * other): bigints as decimal strings and byte arrays as base64, each tagged so that decoding
 * restores the exact value and type. Plain numbers, strings, arrays and objects pass as they are.
 */

const BIGINT = '$n';
const BYTES = '$b';

export function encodeJobJson(value: unknown): Uint8Array {
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    // The holder's own value: a Buffer's toJSON has already run on `v`.
    const raw = this[key];
    if (typeof raw === 'bigint') return { [BIGINT]: raw.toString(10) };
    if (raw instanceof Uint8Array) return { [BYTES]: Buffer.from(raw).toString('base64') };
    return v;
  });
  return new TextEncoder().encode(text);
}

export function decodeJobJson<T>(bytes: Uint8Array): T {
  return JSON.parse(new TextDecoder().decode(bytes), (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const keys = Object.keys(v);
    if (keys.length !== 1) return v;
    const tagged = v as Record<string, unknown>;
    if (typeof tagged[BIGINT] === 'string' && /^-?\d+$/.test(tagged[BIGINT])) return BigInt(tagged[BIGINT]);
    if (typeof tagged[BYTES] === 'string') return new Uint8Array(Buffer.from(tagged[BYTES], 'base64'));
    return v;
  }) as T;
}
