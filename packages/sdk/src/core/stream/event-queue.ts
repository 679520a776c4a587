/**
 * The stream's async-iterator buffer, bounded: at most `max` events not yet taken. When it is
 * full the oldest event is dropped, and the next event taken is one `error` event (a
 * `StreamOverflowError` saying how many were dropped) in their place.
 */
import { NightjarError } from '../errors.js';

/** Events were dropped from the stream's iterator buffer (nobody took them in time). */
export class StreamOverflowError extends NightjarError {
  override name = 'StreamOverflowError';
  constructor(readonly dropped: number) {
    super(`the stream's event buffer overflowed: ${dropped} event(s) dropped`);
  }
}

export class EventQueue<E> {
  private readonly items: E[] = [];
  private dropped = 0;
  private readonly waiters: ((r: IteratorResult<E>) => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly overflowEvent: (error: StreamOverflowError) => E,
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
      const e = this.overflowEvent(new StreamOverflowError(this.dropped));
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
