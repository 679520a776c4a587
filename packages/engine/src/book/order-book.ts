/**
 * The order book of one market. Single writer: the engine calls it from one place, so there are
 * no locks; nothing here does I/O or keeps time.
 *
 * Layout: a map orderId → node; per side a sorted container of price levels (ascending; bids are
 * walked from the top); inside a level a linked list of its resting orders in time priority
 * (arrival slot, then intake sequence); a min-heap of orders by (expiry slot, seq); a short list
 * of ioc/fok orders waiting for their arrival batch. Reserved orders (`pending_settlement`) are
 * unlinked from their level, so every walk sees only matchable candidates, and are linked back
 * at their original priority on release. They stay in the expiry heap (reserve and release run
 * for every matched order of every tick): `expire` sets aside a reserved order it meets, and
 * release puts it back.
 *
 * Costs (n orders, L price levels on a side): get O(1); add and release O(log n) for the heap
 * plus O(log L) when a level is created, plus a walk inside the level only when the order is
 * not the latest in time priority (a release usually lands near the head); reserve O(1) plus
 * O(log L) when its level empties; remove O(log n); expire O(k log n) for k expired orders. Memory: one node (5 fields) per order, one level per distinct
 * price, one heap slot per order.
 */
import type { Side } from '@nightjar/protocol';
import { NODE_RESERVED, NODE_REMOVED, NODE_RESTING, OrderNode, SortedLevels, type Level } from './levels.js';
import type { BookOrder } from './types.js';

export class OrderBook<O extends BookOrder = BookOrder> {
  private readonly byId = new Map<string, OrderNode<O>>();
  /** @internal */
  readonly bidLevels = new SortedLevels<O>();
  /** @internal */
  readonly askLevels = new SortedLevels<O>();
  private readonly heap: OrderNode<O>[] = [];
  /** @internal ioc/fok nodes not yet judged by an auction (may include removed nodes). */
  immediates: OrderNode<O>[] = [];
  private removedImmediates = 0;
  private reservedCount = 0;

  /** Every order in the book, resting or reserved. */
  get size(): number {
    return this.byId.size;
  }

  /** Orders resting (`pending`). */
  get pendingCount(): number {
    return this.byId.size - this.reservedCount;
  }

  /** Orders reserved (`pending_settlement`). */
  get reservedSize(): number {
    return this.reservedCount;
  }

  /** Distinct price levels holding resting orders, per side. */
  levelCount(side: Side): number {
    return (side === 'bid' ? this.bidLevels : this.askLevels).size;
  }

  get(orderId: string): O | undefined {
    return this.byId.get(orderId)?.order;
  }

  has(orderId: string): boolean {
    return this.byId.has(orderId);
  }

  /**
   * Books a resting order. The order must be `pending`, have amount > 0, a bid limit > 0 and an
   * ask limit ≥ 0, and an id not already in the book; otherwise this throws (the book is left
   * unchanged).
   */
  add(order: O): void {
    if (this.byId.has(order.orderId)) throw new Error(`order ${order.orderId} is already in the book`);
    if (order.status !== 'pending') throw new Error('only a pending order can be added');
    if (order.amount <= 0n) throw new RangeError('order amount must be positive');
    if (order.side === 'bid' ? order.priceLimit <= 0n : order.priceLimit < 0n) {
      throw new RangeError('bid price limit must be positive, ask price limit non-negative');
    }
    const node = new OrderNode(order);
    this.byId.set(order.orderId, node);
    this.link(node);
    if (order.orderType !== 'limit') this.immediates.push(node);
  }

  /** Removes an order in any state. Returns it, or undefined when it is not in the book. */
  remove(orderId: string): O | undefined {
    const node = this.byId.get(orderId);
    if (node === undefined) return undefined;
    this.removeNode(node);
    return node.order;
  }

  /** pending → pending_settlement: out of matching. Undefined if absent or not pending. */
  reserve(orderId: string): O | undefined {
    const node = this.byId.get(orderId);
    if (node === undefined || node.state !== NODE_RESTING) return undefined;
    this.reserveNode(node);
    return node.order;
  }

  /**
   * pending_settlement → pending, at its original priority. With `newAmount` (a residual after a
   * confirmed partial fill) the order's amount becomes that; it must be > 0 and ≤ the current
   * amount, else this throws. Undefined if absent or not reserved.
   */
  release(orderId: string, newAmount?: bigint): O | undefined {
    const node = this.byId.get(orderId);
    if (node === undefined || node.state !== NODE_RESERVED) return undefined;
    const order = node.order;
    if (newAmount !== undefined) {
      if (newAmount <= 0n || newAmount > order.amount) {
        throw new RangeError(`release amount must be in (0, ${order.amount}]`);
      }
      order.amount = newAmount;
    }
    order.status = 'pending';
    node.state = NODE_RESTING;
    this.reservedCount--;
    this.link(node);
    return order;
  }

  /**
   * Removes and returns every resting order whose expirySlot ≤ slot, in (expirySlot, seq) order.
   * Reserved orders are left alone: their settlement decides; once released, the next call
   * expires them.
   */
  expire(slot: bigint): O[] {
    const out: O[] = [];
    const heap = this.heap;
    while (heap.length > 0 && heap[0]!.order.expirySlot <= slot) {
      const node = heap[0]!;
      if (node.state === NODE_RESERVED) {
        this.heapRemove(node); // pushed back on release
        continue;
      }
      this.removeNode(node);
      out.push(node.order);
    }
    return out;
  }

  /** Resting orders: bids best first, then asks best first (price, arrival slot, seq). */
  pendingOrders(side?: Side): O[] {
    const out: O[] = [];
    if (side !== 'ask') {
      const chunks = this.bidLevels.chunks;
      for (let ci = chunks.length - 1; ci >= 0; ci--) {
        const chunk = chunks[ci]!;
        for (let k = chunk.length - 1; k >= 0; k--) {
          for (let n = chunk[k]!.head; n !== null; n = n.next) out.push(n.order);
        }
      }
    }
    if (side !== 'bid') {
      for (const chunk of this.askLevels.chunks) {
        for (const level of chunk) {
          for (let n = level.head; n !== null; n = n.next) out.push(n.order);
        }
      }
    }
    return out;
  }

  /** Reserved orders, in intake order. */
  reservedOrders(): O[] {
    const out: O[] = [];
    for (const node of this.byId.values()) if (node.state === NODE_RESERVED) out.push(node.order);
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** @internal */
  reserveNode(node: OrderNode<O>): void {
    this.unlink(node);
    node.state = NODE_RESERVED;
    node.order.status = 'pending_settlement';
    this.reservedCount++;
  }

  /** @internal */
  removeNode(node: OrderNode<O>): void {
    if (node.state === NODE_RESTING) this.unlink(node);
    else if (node.state === NODE_RESERVED) this.reservedCount--;
    else return;
    if (node.heapIndex >= 0) this.heapRemove(node);
    node.state = NODE_REMOVED;
    this.byId.delete(node.order.orderId);
    if (node.order.orderType !== 'limit' && ++this.removedImmediates > 64) {
      // Cancelled before their auction: compact so a book that never ticks stays bounded.
      this.compactImmediates();
    }
  }

  /**
   * @internal Takes out of the waiting list, and returns, the ioc/fok nodes an auction at `tick`
   * judges (arrivalTick ≤ tick), skipping removed ones; later arrivals keep waiting.
   */
  takeDueImmediates(tick: number): OrderNode<O>[] {
    const list = this.immediates;
    this.immediates = [];
    const due: OrderNode<O>[] = [];
    let w = 0;
    for (let r = 0; r < list.length; r++) {
      const node = list[r]!;
      if (node.state === NODE_REMOVED) continue;
      if (node.order.arrivalTick <= tick) due.push(node);
      else list[w++] = node;
    }
    list.length = w;
    this.immediates = list;
    this.removedImmediates = 0;
    return due;
  }

  /** @internal Drops removed nodes from the ioc/fok waiting list. */
  compactImmediates(): void {
    const list = this.immediates;
    let w = 0;
    for (let r = 0; r < list.length; r++) {
      const node = list[r]!;
      if (node.state !== NODE_REMOVED) list[w++] = node;
    }
    list.length = w;
    this.removedImmediates = 0;
  }

  private link(node: OrderNode<O>): void {
    const o = node.order;
    (o.side === 'bid' ? this.bidLevels : this.askLevels).obtain(o.priceLimit).link(node);
    if (node.heapIndex < 0) this.heapPush(node);
  }

  private unlink(node: OrderNode<O>): void {
    const level = node.level as Level<O>;
    level.unlink(node);
    if (level.count === 0) (node.order.side === 'bid' ? this.bidLevels : this.askLevels).delete(level);
  }

  // Min-heap on (expirySlot, seq); each node knows its index for O(log n) removal.

  private static before(a: OrderNode<BookOrder>, b: OrderNode<BookOrder>): boolean {
    const x = a.order;
    const y = b.order;
    return x.expirySlot < y.expirySlot || (x.expirySlot === y.expirySlot && x.seq < y.seq);
  }

  private heapPush(node: OrderNode<O>): void {
    node.heapIndex = this.heap.length;
    this.heap.push(node);
    this.siftUp(node.heapIndex);
  }

  private heapRemove(node: OrderNode<O>): void {
    const heap = this.heap;
    const i = node.heapIndex;
    node.heapIndex = -1;
    const last = heap.pop()!;
    if (last === node) return;
    heap[i] = last;
    last.heapIndex = i;
    this.siftUp(i);
    this.siftDown(last.heapIndex);
  }

  private siftUp(i: number): void {
    const heap = this.heap;
    const node = heap[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = heap[p]!;
      if (!OrderBook.before(node, parent)) break;
      heap[i] = parent;
      parent.heapIndex = i;
      i = p;
    }
    heap[i] = node;
    node.heapIndex = i;
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    const node = heap[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && OrderBook.before(heap[c + 1]!, heap[c]!)) c++;
      const child = heap[c]!;
      if (!OrderBook.before(child, node)) break;
      heap[i] = child;
      child.heapIndex = i;
      i = c;
    }
    heap[i] = node;
    node.heapIndex = i;
  }
}
