/**
 * Binary snapshots of Merkle trees, restored without rehashing. Integers little-endian; nodes are
 * 32-byte big-endian field elements. A level l of a tree with n leaves holds ceil(n / 2^l) nodes
 * (level 0 = leaves, level depth = root; all empty when n = 0).
 *
 * Single tree ("NJMT"):
 *   0   4  magic "NJMT"
 *   4   1  version (1)
 *   5   1  depth d (1..30)
 *   6   2  reserved, 0
 *   8   4  leaf count n (u32, <= 2^d)
 *   12  ..  levels 0..d, each ceil(n / 2^l) nodes of 32 bytes
 *   end-32  SHA-256 of every byte before it
 *
 * Sharded trees ("NJST"):
 *   0   4  magic "NJST"
 *   4   1  version (1)
 *   5   1  depth d
 *   6   2  number of trees T (u16, >= 1)
 *   8   2  history capacity H (u16): previous roots kept per tree
 *   10  2  reserved, 0
 *   12  ..  T shard records, tree_id 0 first:
 *             4  leaf count n (u32)
 *             ..  levels 0..d as above
 *             2  history length h (u16, <= H)
 *             h × (4 leaf count (u32) ‖ 32 root), oldest first, leaf counts non-decreasing and <= n
 *   end-32  SHA-256 of every byte before it
 *
 * The checksum is verified before anything is parsed; any mismatch, unknown magic or version, or
 * length that does not add up throws SnapshotError. The snapshot is trusted local state (the
 * checksum catches corruption, not forgery): node values are not re-derived.
 */
import { createHash } from 'node:crypto';
import { SnapshotError } from '../errors.js';
import { NODE_BYTES } from './node-store.js';
import { MAX_TREE_DEPTH } from './zeros.js';

const TREE_MAGIC = 'NJMT';
const SHARDED_MAGIC = 'NJST';
const VERSION = 1;
const CHECKSUM_BYTES = 32;
const TREE_HEADER_BYTES = 12;
const SHARDED_HEADER_BYTES = 12;
const HISTORY_ENTRY_BYTES = 4 + NODE_BYTES;

export interface ShardImage {
  size: number;
  levels: Uint8Array[];
  /** Previous roots, oldest first, each with the leaf count the tree had then. */
  history: { size: number; root: bigint }[];
}

export interface ShardedImage {
  depth: number;
  historyCapacity: number;
  shards: ShardImage[];
}

class Writer {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  private offset = 0;

  constructor(length: number) {
    this.bytes = new Uint8Array(length);
    this.view = new DataView(this.bytes.buffer);
  }

  ascii(text: string): void {
    for (let i = 0; i < text.length; i++) this.bytes[this.offset++] = text.charCodeAt(i);
  }
  u8(value: number): void {
    this.view.setUint8(this.offset, value);
    this.offset += 1;
  }
  u16(value: number): void {
    this.view.setUint16(this.offset, value, true);
    this.offset += 2;
  }
  u32(value: number): void {
    this.view.setUint32(this.offset, value, true);
    this.offset += 4;
  }
  raw(bytes: Uint8Array): void {
    this.bytes.set(bytes, this.offset);
    this.offset += bytes.length;
  }
  node(value: bigint): void {
    for (let i = NODE_BYTES - 1; i >= 0; i--) {
      this.bytes[this.offset + i] = Number(value & 0xffn);
      value >>= 8n;
    }
    this.offset += NODE_BYTES;
  }
  /** Appends SHA-256 of everything written so far; the buffer must end exactly there. */
  finish(): Uint8Array {
    this.raw(createHash('sha256').update(this.bytes.subarray(0, this.offset)).digest());
    if (this.offset !== this.bytes.length) throw new Error('snapshot size miscomputed');
    return this.bytes;
  }
}

class Reader {
  private readonly view: DataView;
  private offset = 0;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }
  private need(count: number): void {
    if (count > this.remaining) throw new SnapshotError('snapshot is truncated');
  }
  ascii(length: number): string {
    this.need(length);
    const text = String.fromCharCode(...this.bytes.subarray(this.offset, this.offset + length));
    this.offset += length;
    return text;
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }
  u16(): number {
    this.need(2);
    const value = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return value;
  }
  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return value;
  }
  raw(length: number): Uint8Array {
    this.need(length);
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }
  node(): bigint {
    let value = 0n;
    for (const byte of this.raw(NODE_BYTES)) value = (value << 8n) | BigInt(byte);
    return value;
  }
}

/** Verifies the trailing checksum and returns a reader over the body. */
function openChecked(bytes: Uint8Array, magic: string): Reader {
  if (!(bytes instanceof Uint8Array) || bytes.length < 8 + CHECKSUM_BYTES) {
    throw new SnapshotError('snapshot is truncated');
  }
  const body = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  const expected = createHash('sha256').update(body).digest();
  const actual = bytes.subarray(bytes.length - CHECKSUM_BYTES);
  if (!expected.equals(actual)) throw new SnapshotError('snapshot checksum mismatch');
  const reader = new Reader(body);
  if (reader.ascii(4) !== magic) throw new SnapshotError(`not a ${magic} snapshot`);
  const version = reader.u8();
  if (version !== VERSION) throw new SnapshotError(`unsupported snapshot version ${version}`);
  return reader;
}

function readDepth(reader: Reader): number {
  const depth = reader.u8();
  if (depth < 1 || depth > MAX_TREE_DEPTH) throw new SnapshotError(`invalid tree depth ${depth}`);
  return depth;
}

function levelsBytes(depth: number, size: number): number {
  let nodes = 0;
  for (let level = 0; level <= depth; level++) nodes += Math.ceil(size / 2 ** level);
  return nodes * NODE_BYTES;
}

function writeLevels(writer: Writer, depth: number, size: number, levels: Uint8Array[]): void {
  for (let level = 0; level <= depth; level++) {
    const packed = levels[level]!;
    if (packed.length !== Math.ceil(size / 2 ** level) * NODE_BYTES) throw new Error('level size mismatch');
    writer.raw(packed);
  }
}

function readLevels(reader: Reader, depth: number, size: number): Uint8Array[] {
  if (size > 2 ** depth) throw new SnapshotError(`leaf count ${size} exceeds tree capacity`);
  if (levelsBytes(depth, size) > reader.remaining) throw new SnapshotError('snapshot is truncated');
  const levels: Uint8Array[] = [];
  for (let level = 0; level <= depth; level++)
    levels.push(reader.raw(Math.ceil(size / 2 ** level) * NODE_BYTES));
  return levels;
}

export function writeTreeSnapshot(depth: number, size: number, levels: Uint8Array[]): Uint8Array {
  const writer = new Writer(TREE_HEADER_BYTES + levelsBytes(depth, size) + CHECKSUM_BYTES);
  writer.ascii(TREE_MAGIC);
  writer.u8(VERSION);
  writer.u8(depth);
  writer.u16(0);
  writer.u32(size);
  writeLevels(writer, depth, size, levels);
  return writer.finish();
}

export function readTreeSnapshot(bytes: Uint8Array): { depth: number; size: number; levels: Uint8Array[] } {
  const reader = openChecked(bytes, TREE_MAGIC);
  const depth = readDepth(reader);
  if (reader.u16() !== 0) throw new SnapshotError('reserved bytes must be zero');
  const size = reader.u32();
  const levels = readLevels(reader, depth, size);
  if (reader.remaining !== 0) throw new SnapshotError('trailing bytes in snapshot');
  return { depth, size, levels };
}

export function writeShardedSnapshot(image: ShardedImage): Uint8Array {
  let length = SHARDED_HEADER_BYTES + CHECKSUM_BYTES;
  for (const shard of image.shards) {
    length += 4 + levelsBytes(image.depth, shard.size) + 2 + shard.history.length * HISTORY_ENTRY_BYTES;
  }
  const writer = new Writer(length);
  writer.ascii(SHARDED_MAGIC);
  writer.u8(VERSION);
  writer.u8(image.depth);
  writer.u16(image.shards.length);
  writer.u16(image.historyCapacity);
  writer.u16(0);
  for (const shard of image.shards) {
    writer.u32(shard.size);
    writeLevels(writer, image.depth, shard.size, shard.levels);
    writer.u16(shard.history.length);
    for (const entry of shard.history) {
      writer.u32(entry.size);
      writer.node(entry.root);
    }
  }
  return writer.finish();
}

export function readShardedSnapshot(bytes: Uint8Array): ShardedImage {
  const reader = openChecked(bytes, SHARDED_MAGIC);
  const depth = readDepth(reader);
  const treeCount = reader.u16();
  if (treeCount < 1) throw new SnapshotError('snapshot holds no trees');
  const historyCapacity = reader.u16();
  if (reader.u16() !== 0) throw new SnapshotError('reserved bytes must be zero');
  const shards: ShardImage[] = [];
  for (let t = 0; t < treeCount; t++) {
    const size = reader.u32();
    const levels = readLevels(reader, depth, size);
    const historyLength = reader.u16();
    if (historyLength > historyCapacity) throw new SnapshotError('root history longer than its capacity');
    const history: ShardImage['history'] = [];
    let previous = 0;
    for (let h = 0; h < historyLength; h++) {
      const entrySize = reader.u32();
      if (entrySize < previous || entrySize > size) throw new SnapshotError('root history out of order');
      previous = entrySize;
      history.push({ size: entrySize, root: reader.node() });
    }
    shards.push({ size, levels, history });
  }
  if (reader.remaining !== 0) throw new SnapshotError('trailing bytes in snapshot');
  return { depth, historyCapacity, shards };
}
