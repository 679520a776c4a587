/**
 * The venue's event bus: everything the stream pushes passes here, in one order: order lifecycle
 * events (routed by the account recorded at intake; a terminal event is the last), fill memos
 * (published by settlement's order effects), and tree leaves. Publishers need no stream: an event
 * published before the stream exists (boot recovery) is still published. Each publication is stamped with a bus sequence number, so the stream's fan-out can
 * check that it saw every one: a loss anywhere between here and a socket closes sessions with 1011
 * instead of passing unnoticed (a per-connection seq stamped at send time cannot show it).
 */
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

export class VenueEventBus {
  private readonly listeners = new Set<BusListener>();
  private seq = 0;

  /** `onListenerError`: a throwing listener is reported here and never stops the others or the emitter. */
  constructor(private readonly onListenerError: (err: unknown) => void = () => undefined) {}

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

  publish(publication: BusPublication): void {
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
