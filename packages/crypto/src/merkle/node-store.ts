/**
 * A growable array of field elements packed as 32-byte big-endian words. Packed storage keeps a
 * 1M-leaf tree at ~64 MB (vs ~2.5x that as BigInt objects) and lets a snapshot be written and
 * restored with plain byte copies.
 */

export const NODE_BYTES = 32;
export const LOW30_MASK = 0x3fff_ffff;

export class NodeStore {
  private bytes: Uint8Array;
  private view: DataView;
  private length = 0;

  constructor(
    /** Most nodes this level can ever hold; growth never allocates past it. */
    readonly maxCount: number,
    initialCapacity = 16,
  ) {
    this.bytes = new Uint8Array(Math.min(initialCapacity, maxCount) * NODE_BYTES);
    this.view = new DataView(this.bytes.buffer);
  }

  /** A store holding a copy of `count` packed nodes. */
  static fromBytes(maxCount: number, packed: Uint8Array, count: number): NodeStore {
    const store = new NodeStore(maxCount, Math.max(count, 16));
    store.bytes.set(packed.subarray(0, count * NODE_BYTES));
    store.length = count;
    return store;
  }

  get count(): number {
    return this.length;
  }

  get(index: number): bigint {
    const o = index * NODE_BYTES;
    const v = this.view;
    return (
      (v.getBigUint64(o) << 192n) |
      (v.getBigUint64(o + 8) << 128n) |
      (v.getBigUint64(o + 16) << 64n) |
      v.getBigUint64(o + 24)
    );
  }

  /** Writes node `index`, which may be at most `count` (appending one node). */
  set(index: number, value: bigint): void {
    if (index === this.length) {
      if ((index + 1) * NODE_BYTES > this.bytes.length) this.grow(index + 1);
      this.length++;
    }
    const o = index * NODE_BYTES;
    const v = this.view;
    v.setBigUint64(o, value >> 192n);
    v.setBigUint64(o + 8, BigInt.asUintN(64, value >> 128n));
    v.setBigUint64(o + 16, BigInt.asUintN(64, value >> 64n));
    v.setBigUint64(o + 24, BigInt.asUintN(64, value));
  }

  /** The low 30 bits of node `index`, read without building a BigInt (a cheap lookup key). */
  low30(index: number): number {
    return this.view.getUint32(index * NODE_BYTES + 28) & LOW30_MASK;
  }

  /** The packed bytes of nodes [0, count), as a view (not a copy). */
  packed(): Uint8Array {
    return this.bytes.subarray(0, this.length * NODE_BYTES);
  }

  private grow(minCount: number): void {
    const target = Math.min(Math.max(minCount, (this.bytes.length / NODE_BYTES) * 2), this.maxCount);
    const next = new Uint8Array(target * NODE_BYTES);
    next.set(this.bytes);
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }
}
