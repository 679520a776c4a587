/**
 * The venue's event bus: everything the stream pushes passes here, in one order: order lifecycle
 * events (routed by the account recorded at intake; a terminal event is the last) and fill memos
 * (both from `publishEffects`, orders/market-writer.ts), and tree leaves. Publishers need no
 * stream: an event published before the stream exists (boot recovery) is still published. Each
 * publication is stamped with a bus sequence number, so the stream's fan-out can
 * check that it saw every one: a loss anywhere between here and a socket closes sessions with 1011
 * instead of passing unnoticed (a per-connection seq stamped at send time cannot show it).
 */
import { randomInt } from 'node:crypto';
import type { FillEvent, OrderEvent, TreeEvent } from '@nightjar/protocol';

export type OrderEventBody = Omit<OrderEvent, 'seq' | 'channel'>;
export type FillEventBody = Omit<FillEvent, 'seq' | 'channel'>;
export type TreeEventBody = Omit<TreeEvent, 'seq' | 'channel'>;

export type BusPublication =
  | { channel: 'orders'; accountId: string; body: OrderEventBody }
  | { channel: 'fills'; accountId: string; body: FillEventBody }
  | { channel: 'tree'; body: TreeEventBody }
  /** A tree shard was rebuilt from the chain: leaves may have been applied without their events. */
  | { channel: 'tree-reset'; treeId: number };

export type BusEvent = BusPublication & {
  /** 1, 2, 3, … per boot, with no gaps. */
  busSeq: number;
  /** `performance.now()` at publication (latency measurement). */
  emittedAt: number;
};

export type BusListener = (event: BusEvent) => void;

/**
 * A random hold on fill pushes (issue 30, item 5): a fill push landed one slot after the
 * settlement holding the trader's match, so the push's timing named the settlement. Each held
 * group waits a uniform, crypto-random `0..maxDelayMs` before it is published.
 */
/** The timers a hold runs on (the stream's clock, stream/clock.ts, is one). */
export interface HoldClock {
  now(): number;
  /** Runs `fn` once, at or after Unix ms `atMs`; returns a function that cancels it. */
  at(atMs: number, fn: () => void): () => void;
}

export interface PushHoldOptions {
  /** Largest hold in ms; 0 publishes at once. */
  maxDelayMs: number;
  /** Timers (tests pass a manual clock). */
  clock: HoldClock;
  /** A uniform integer in `[0, maxInclusive]`; by default `crypto.randomInt`. */
  random?: (maxInclusive: number) => number;
}

interface QueuedPublication {
  publication: BusPublication;
  /** False while its hold runs; a ready entry behind a held one waits for it (per-account order). */
  ready: boolean;
}

export class VenueEventBus {
  private readonly listeners = new Set<BusListener>();
  private seq = 0;
  /** Per account: publications waiting behind a held group, in publication order. */
  private readonly queues = new Map<string, QueuedPublication[]>();
  private readonly cancels = new Set<() => void>();

  /**
   * `onListenerError`: a throwing listener is reported here and never stops the others or the emitter.
   * `hold`: how {@link publishHeld} delays; without it held groups are published at once.
   */
  constructor(
    private readonly onListenerError: (err: unknown) => void = () => undefined,
    private readonly hold?: PushHoldOptions,
  ) {}

  /** The last bus sequence number handed out (0 before the first publication). */
  get lastSeq(): number {
    return this.seq;
  }

  /** An `orders` channel event for the account that placed the order. */
  emit(accountId: string, event: OrderEventBody): void {
    this.publish({ channel: 'orders', accountId, body: event });
  }

  /** A `fills` channel event (a confirmed match's memo) for the account of the filled order. */
  fill(accountId: string, body: FillEventBody): void {
    this.publish({ channel: 'fills', accountId, body });
  }

  /**
   * Publishes `publications` (all for `accountId`) after a random hold. Anything published for the
   * account meanwhile waits behind them, so an account's events keep their order (a terminal order
   * event stays the last) and a later event never reveals an earlier held one's timing.
   */
  publishHeld(accountId: string, publications: BusPublication[]): void {
    const max = this.hold?.maxDelayMs ?? 0;
    if (!this.hold || max <= 0) {
      for (const p of publications) this.publish(p);
      return;
    }
    const delay = (this.hold.random ?? ((m: number) => randomInt(0, m + 1)))(max);
    const entries = publications.map((publication) => ({ publication, ready: false }));
    const queue = this.queues.get(accountId) ?? [];
    queue.push(...entries);
    this.queues.set(accountId, queue);
    const cancel = this.hold.clock.at(this.hold.clock.now() + delay, () => {
      this.cancels.delete(cancel);
      for (const e of entries) e.ready = true;
      this.drain(accountId);
    });
    this.cancels.add(cancel);
  }

  /** Publishes every held publication now (engine shutdown: nothing is silently dropped). */
  releaseHeld(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
    for (const [accountId, queue] of this.queues) {
      for (const e of queue) e.ready = true;
      this.drain(accountId);
    }
  }

  /** Publications held or queued for `accountId`. */
  heldCount(accountId: string): number {
    return this.queues.get(accountId)?.length ?? 0;
  }

  publish(publication: BusPublication): void {
    const queue = 'accountId' in publication ? this.queues.get(publication.accountId) : undefined;
    if (queue) {
      queue.push({ publication, ready: true });
      return;
    }
    this.publishNow(publication);
  }

  private drain(accountId: string): void {
    const queue = this.queues.get(accountId);
    if (!queue) return;
    while (queue.length > 0 && queue[0]!.ready) this.publishNow(queue.shift()!.publication);
    if (queue.length === 0) this.queues.delete(accountId);
  }

  private publishNow(publication: BusPublication): void {
    const event = { ...publication, busSeq: ++this.seq, emittedAt: performance.now() } as BusEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
