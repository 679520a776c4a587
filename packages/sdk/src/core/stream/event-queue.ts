/**
 * The stream's async-iterator buffer, bounded: at most `max` events not yet taken. When it is
 * full the oldest event is dropped, and the next event taken is one `error` event (a
 * STREAM_OVERFLOW error saying how many were dropped) in their place.
 */
import { NIGHTJAR_ERROR__STREAM_OVERFLOW, NightjarError } from '../errors/index.js';

export class EventQueue<E> {
  private readonly items: E[] = [];
  private dropped = 0;
  private readonly waiters: ((r: IteratorResult<E>) => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly overflowEvent: (error: NightjarError<typeof NIGHTJAR_ERROR__STREAM_OVERFLOW>) => E,
  ) {}

  /** Events buffered and not yet taken. */
  get size(): number {
    return this.items.length;
  }

  push(e: E): void {
    const w = this.waiters.shift();
    if (w) return w({ value: e, done: false });
    this.items.push(e);
    // Bounded (a few thousand at most), so shifting the array is cheap enough.
    while (this.items.length > Math.max(0, this.max)) {
      this.items.shift();
      this.dropped++;
    }
  }

  /** The next event; `undefined` when none is buffered. */
  take(): E | undefined {
    if (this.dropped > 0) {
      const e = this.overflowEvent(
        new NightjarError(NIGHTJAR_ERROR__STREAM_OVERFLOW, { dropped: this.dropped }),
      );
      this.dropped = 0;
      return e;
    }
    return this.items.shift();
  }

  /** A promise for the next pushed event (call when `take` found none). */
  wait(): Promise<IteratorResult<E>> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Ends every waiting `next()`. */
  end(): void {
    for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
  }
}
