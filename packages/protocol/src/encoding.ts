import bs58 from 'bs58';

/** BN254 scalar field modulus r. Every field element on the wire must be below it. */
export const FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

export const U64_MAX = (1n << 64n) - 1n;

const HEX_RE = /^[0-9a-fA-F]*$/;

/** True when `value` is a hex string of exactly `bytes` bytes (either case). */
export function isHexOfWidth(value: unknown, bytes: number): value is string {
  return typeof value === 'string' && value.length === bytes * 2 && HEX_RE.test(value);
}

/** Decodes hex of any case. Throws on odd length or non-hex characters. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !HEX_RE.test(hex)) throw new TypeError('invalid hex');
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** Lowercase hex, as every output of the venue uses. */
export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Big-endian bytes to an unsigned integer. */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  let out = 0n;
  for (const b of bytes) out = (out << 8n) | BigInt(b);
  return out;
}

/** Unsigned integer to exactly `width` big-endian bytes. Throws when it does not fit. */
export function bigIntToBytes(value: bigint, width = 32): Uint8Array {
  if (value < 0n) throw new RangeError('negative value');
  const out = new Uint8Array(width);
  let v = value;
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n) throw new RangeError(`value does not fit in ${width} bytes`);
  return out;
}

/** A field element as the wire carries it: 64 hex characters, big-endian, lowercase. */
export function fieldToHex(value: bigint): string {
  if (value < 0n || value >= FIELD_MODULUS) throw new RangeError('not a field element');
  return value.toString(16).padStart(64, '0');
}

/** Parses a 32-byte big-endian hex field element; undefined when the width is wrong or it is >= r. */
export function parseFieldHex(value: unknown): bigint | undefined {
  if (!isHexOfWidth(value, 32)) return undefined;
  const n = BigInt('0x' + value);
  return n < FIELD_MODULUS ? n : undefined;
}

/** Base58 (Solana alphabet) of exactly 32 bytes; undefined otherwise. */
export function parseAddress(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || value.length < 32 || value.length > 44) return undefined;
  try {
    const bytes = bs58.decode(value);
    return bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

export function addressToBase58(bytes: Uint8Array): string {
  if (bytes.length !== 32) throw new RangeError('address must be 32 bytes');
  return bs58.encode(bytes);
}

/** Splits a 32-byte mint into the two field elements the circuits use: hi = bytes 0..16, lo = 16..32. */
export function mintToFields(mint: Uint8Array): { mintHi: bigint; mintLo: bigint } {
  if (mint.length !== 32) throw new RangeError('mint must be 32 bytes');
  return { mintHi: bytesToBigInt(mint.subarray(0, 16)), mintLo: bytesToBigInt(mint.subarray(16, 32)) };
}
