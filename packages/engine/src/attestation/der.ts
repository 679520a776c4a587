/**
 * Just enough DER to write the Intel SGX PCK certificate extension (OID 1.2.840.113741.1.13.1):
 * sequences of (OID, value) pairs holding octet strings, integers and one enumerated.
 */

function length(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

function tlv(tag: number, content: Uint8Array): Uint8Array {
  const len = length(content.length);
  const out = new Uint8Array(1 + len.length + content.length);
  out[0] = tag;
  out.set(len, 1);
  out.set(content, 1 + len.length);
  return out;
}

export function sequence(...items: Uint8Array[]): Uint8Array {
  return tlv(0x30, Buffer.concat(items));
}

export function octetString(bytes: Uint8Array): Uint8Array {
  return tlv(0x04, bytes);
}

/** A non-negative integer, minimal two's complement. */
export function integer(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError('DER integers here are non-negative');
  const bytes: number[] = [];
  let v = value;
  do {
    bytes.unshift(v & 0xff);
    v = Math.floor(v / 256);
  } while (v > 0);
  if (bytes[0]! & 0x80) bytes.unshift(0);
  return tlv(0x02, Uint8Array.from(bytes));
}

export function enumerated(value: number): Uint8Array {
  const int = integer(value);
  int[0] = 0x0a;
  return int;
}

export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isSafeInteger(a) || a < 0)) throw new RangeError('bad OID');
  const out: number[] = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [];
    let v = arc;
    do {
      base128.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < base128.length - 1; i++) base128[i] = base128[i]! | 0x80;
    out.push(...base128);
  }
  return tlv(0x06, Uint8Array.from(out));
}
