/**
 * The clock the stream's deadlines run on (login 10 s, `auth_expired`, token expiry, 60 s silence).
 * Injectable so that tests move time by hand and every deadline is exact without sleeping.
 */

export interface StreamClock {
  /** Unix ms; the same clock the accounts service checks token expiry against. */
  now(): number;
  /** Runs `fn` once, at or after Unix ms `atMs`; returns a function that cancels it. */
  at(atMs: number, fn: () => void): () => void;
}

/** Node's largest timer delay; longer waits re-arm (tokens live at most an hour, so this is a guard). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Real timers against `now` (unref'd: a pending deadline never keeps the process alive). */
export function systemClock(now: () => number = Date.now): StreamClock {
  return {
    now,
    at(atMs, fn) {
      let handle: NodeJS.Timeout;
      const arm = () => {
        const delay = Math.min(MAX_TIMER_MS, Math.max(0, atMs - now()));
        handle = setTimeout(() => (now() >= atMs ? fn() : arm()), delay);
        handle.unref();
      };
      arm();
      return () => clearTimeout(handle);
    },
  };
}

interface ManualTimer {
  atMs: number;
  order: number;
  fn: () => void;
}

/** A clock that moves only when told to; due timers run in time order inside {@link ManualClock.advance}. */
export class ManualClock implements StreamClock {
  private t: number;
  private order = 0;
  private readonly timers = new Set<ManualTimer>();

  constructor(startMs: number) {
    this.t = startMs;
  }

  readonly now = (): number => this.t;

  at(atMs: number, fn: () => void): () => void {
    const timer = { atMs, order: this.order++, fn };
    this.timers.add(timer);
    return () => {
      this.timers.delete(timer);
    };
  }

  /** Moves time forward by `ms`, running every timer that falls due, each at its own time. */
  advance(ms: number): void {
    const target = this.t + ms;
    for (;;) {
      let next: ManualTimer | undefined;
      for (const timer of this.timers)
        if (
          timer.atMs <= target &&
          (!next || timer.atMs < next.atMs || (timer.atMs === next.atMs && timer.order < next.order))
        )
          next = timer;
      if (!next) break;
      this.timers.delete(next);
      this.t = Math.max(this.t, next.atMs);
      next.fn();
    }
    this.t = target;
  }

  /** Timers waiting (for tests that check nothing leaks). */
  get pending(): number {
    return this.timers.size;
  }
}
