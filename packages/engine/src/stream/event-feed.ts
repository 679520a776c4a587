/**
 * The stream's subscription to the engine's event bus: a bounded queue drained once per turn of
 * the event loop (so a matcher tick never waits on sockets), which checks that bus sequence
 * numbers arrive contiguously. A publication that never arrives, one dropped because the queue was
 * full, or one whose delivery threw is a loss: `onLoss` is told and the feed carries on from the
 * bus's head.
 */
import type { BusEvent, VenueEventBus } from '../event-bus.js';

export interface EventFeedStats {
  /** The last bus sequence number accounted for. */
  cursor: number;
  backlog: number;
  /** Publications dropped because the queue was full. */
  dropped: number;
}

export class EventFeed {
  private queue: BusEvent[] = [];
  private head = 0;
  private cursor: number;
  private dropped = 0;
  private scheduled = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: Pick<VenueEventBus, 'lastSeq' | 'subscribe'>,
    private readonly capacity: number,
    private readonly deliver: (event: BusEvent) => void,
    private readonly onLoss: (reason: string) => void,
  ) {
    this.cursor = bus.lastSeq;
    this.unsubscribe = bus.subscribe((event) => this.accept(event));
  }

  stats(): EventFeedStats {
    return { cursor: this.cursor, backlog: this.queue.length - this.head, dropped: this.dropped };
  }

  stop(): void {
    this.unsubscribe();
  }

  private accept(event: BusEvent): void {
    if (this.queue.length - this.head >= this.capacity) this.dropped++;
    else this.queue.push(event);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Delivers everything queued (including what delivery itself publishes), then checks it reached the bus head. */
  drain(): void {
    this.scheduled = false;
    let lost = 0;
    while (this.head < this.queue.length) {
      const event = this.queue[this.head++]!;
      if (event.busSeq <= this.cursor) continue; // already accounted for (a late duplicate)
      lost += event.busSeq - this.cursor - 1;
      this.cursor = event.busSeq;
      try {
        this.deliver(event);
      } catch {
        lost++;
      }
    }
    this.queue = [];
    this.head = 0;
    const head = this.bus.lastSeq;
    if (head > this.cursor) {
      lost += head - this.cursor;
      this.cursor = head;
    }
    if (lost > 0) this.onLoss(`${lost} bus event(s) never reached the sessions`);
  }
}
