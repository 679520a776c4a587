/**
 * Internal structures of the order book: one node per order, price levels holding their
 * resting orders in time priority, and a sorted container of levels. Not exported from the
 * package: the book and the matcher are the only users.
 */
import type { BookOrder } from './types.js';

export const NODE_RESTING = 0; // linked in its level, in the expiry heap
export const NODE_RESERVED = 1; // pending_settlement: unlinked, out of the heap
export const NODE_REMOVED = 2; // gone from the book

/** Time priority inside a price level: arrival slot, then intake sequence. */
export function earlier(a: BookOrder, b: BookOrder): boolean {
  return a.arrivalSlot < b.arrivalSlot || (a.arrivalSlot === b.arrivalSlot && a.seq < b.seq);
}

export class OrderNode<O extends BookOrder> {
  level: Level<O> | null = null;
  prev: OrderNode<O> | null = null;
  next: OrderNode<O> | null = null;
  heapIndex = -1;
  state = NODE_RESTING;
  constructor(readonly order: O) {}
}

/**
 * One price on one side. Holds only resting (`pending`) orders, as a doubly linked list in time
 * priority, with their total volume. `minExpiry` is a lower bound on the resting orders'
 * expiry slots (exact after `refreshEligible`), so a level whose bound clears the settlement
 * buffer can contribute its whole volume without visiting its orders.
 */
export class Level<O extends BookOrder> {
  head: OrderNode<O> | null = null;
  tail: OrderNode<O> | null = null;
  count = 0;
  volume = 0n;
  minExpiry = 0n;
  /** Resting ioc/fok orders: they are matchable only in their arrival batch. */
  immediates = 0;
  constructor(readonly price: bigint) {}

  link(node: OrderNode<O>): void {
    const o = node.order;
    node.level = this;
    if (this.count === 0 || o.expirySlot < this.minExpiry) this.minExpiry = o.expirySlot;
    this.count++;
    this.volume += o.amount;
    if (o.orderType !== 'limit') this.immediates++;
    const tail = this.tail;
    if (tail === null) {
      node.prev = node.next = null;
      this.head = this.tail = node;
      return;
    }
    // Out of order (a released order keeps its original priority): walk from the head, where
    // old orders sit, to the first order it precedes.
    let at: OrderNode<O> | null = earlier(tail.order, o) ? null : this.head;
    while (at !== null && !earlier(o, at.order)) at = at.next;
    if (at === null) {
      // The common case: after everything already resting (also for an exact key tie).
      node.prev = tail;
      node.next = null;
      tail.next = node;
      this.tail = node;
      return;
    }
    node.next = at;
    node.prev = at.prev;
    if (at.prev === null) this.head = node;
    else at.prev.next = node;
    at.prev = node;
  }

  unlink(node: OrderNode<O>): void {
    const o = node.order;
    if (node.prev === null) this.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) this.tail = node.prev;
    else node.next.prev = node.prev;
    node.prev = node.next = null;
    node.level = null;
    this.count--;
    this.volume -= o.amount;
    if (o.orderType !== 'limit') this.immediates--;
  }
}

/** Which orders take part in an auction beyond the book's own rules (`AuctionOptions.admits`). */
export type Admits = (order: BookOrder) => boolean;

/**
 * Matchable at this auction: outside the settlement buffer, for ioc/fok in its arrival batch, and
 * admitted by `admits` when there is one.
 */
export function eligible(o: BookOrder, cutoff: bigint, tick: number, admits?: Admits): boolean {
  return (
    o.expirySlot > cutoff &&
    (o.orderType === 'limit' || o.arrivalTick <= tick) &&
    (admits === undefined || admits(o))
  );
}

/**
 * Volume of the level's orders that are matchable at this auction (`cutoff` = slot + buffer).
 * O(1) when the level's expiry bound clears the buffer and it holds no ioc/fok; otherwise visits
 * the level once and tightens the bound.
 */
export function eligibleVolume<O extends BookOrder>(
  level: Level<O>,
  cutoff: bigint,
  tick: number,
  admits?: Admits,
): bigint {
  if (admits === undefined && level.immediates === 0 && level.minExpiry > cutoff) return level.volume;
  let sum = 0n;
  let min = -1n;
  for (let n = level.head; n !== null; n = n.next) {
    const o = n.order;
    if (min < 0n || o.expirySlot < min) min = o.expirySlot;
    if (eligible(o, cutoff, tick, admits)) sum += o.amount;
  }
  if (min >= 0n) level.minExpiry = min;
  return sum;
}

const CHUNK = 256; // chunks split at 2 × CHUNK levels

/**
 * Price levels of one side in ascending price order: a list of sorted chunks (each at most
 * 2 × CHUNK levels) plus a price → level map. Lookup O(1); insert and delete O(log L + CHUNK);
 * in-order walks in either direction with `LevelCursor`.
 */
export class SortedLevels<O extends BookOrder> {
  /** @internal read by LevelCursor */
  readonly chunks: Level<O>[][] = [];
  private readonly byPrice = new Map<bigint, Level<O>>();

  get size(): number {
    return this.byPrice.size;
  }

  get(price: bigint): Level<O> | undefined {
    return this.byPrice.get(price);
  }

  /** The level at `price`, created and inserted if absent. */
  obtain(price: bigint): Level<O> {
    let level = this.byPrice.get(price);
    if (level !== undefined) return level;
    level = new Level<O>(price);
    this.byPrice.set(price, level);
    const chunks = this.chunks;
    if (chunks.length === 0) {
      chunks.push([level]);
      return level;
    }
    let ci = this.chunkFor(price);
    if (ci === chunks.length) ci--; // above every level: append to the last chunk
    const chunk = chunks[ci]!;
    chunk.splice(this.indexIn(chunk, price), 0, level);
    if (chunk.length >= 2 * CHUNK) chunks.splice(ci + 1, 0, chunk.splice(CHUNK));
    return level;
  }

  delete(level: Level<O>): void {
    const price = level.price;
    if (this.byPrice.get(price) !== level) return;
    this.byPrice.delete(price);
    const ci = this.chunkFor(price);
    const chunk = this.chunks[ci]!;
    chunk.splice(this.indexIn(chunk, price), 1);
    if (chunk.length === 0) this.chunks.splice(ci, 1);
  }

  /** Index of the first chunk whose last level's price is ≥ price (chunks.length if none). */
  private chunkFor(price: bigint): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = chunks[mid]!;
      if (c[c.length - 1]!.price < price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first level in `chunk` whose price is ≥ price. */
  private indexIn(chunk: Level<O>[], price: bigint): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (chunk[mid]!.price < price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * A reusable walk over a SortedLevels, ascending (asks: best first) or descending (bids: best
 * first). The container must not change during a walk.
 */
export class LevelCursor<O extends BookOrder> {
  private chunks: Level<O>[][] = [];
  private ci = 0;
  private k = 0;
  private ascending = true;

  reset(levels: SortedLevels<O>, ascending: boolean): this {
    this.chunks = levels.chunks;
    this.ascending = ascending;
    if (ascending) {
      this.ci = 0;
      this.k = 0;
    } else {
      this.ci = this.chunks.length - 1;
      this.k = this.ci >= 0 ? this.chunks[this.ci]!.length - 1 : -1;
    }
    return this;
  }

  next(): Level<O> | undefined {
    const chunks = this.chunks;
    if (this.ascending) {
      const chunk = chunks[this.ci];
      if (chunk === undefined) return undefined;
      const level = chunk[this.k++]!;
      if (this.k === chunk.length) {
        this.ci++;
        this.k = 0;
      }
      return level;
    }
    if (this.ci < 0) return undefined;
    const level = chunks[this.ci]![this.k--]!;
    if (this.k < 0) {
      this.ci--;
      if (this.ci >= 0) this.k = chunks[this.ci]!.length - 1;
    }
    return level;
  }

  /** Drop references so a parked cursor does not keep the book alive. */
  clear(): void {
    this.chunks = [];
    this.ci = -1;
    this.k = 0;
  }
}
