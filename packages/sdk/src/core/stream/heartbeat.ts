/**
 * The stream's heartbeat: a `ping` every interval, and a deadline for its reply. A connection
 * that stops answering (a silently dead peer, a half-open TCP connection) is noticed within
 * `interval + timeout` and reported once through `onDead`. Timers are injectable so tests drive
 * time by hand.
 */

/** The timer functions the stream uses (default: Node's, unref'd). */
export interface StreamTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, not keeping the process alive. */
export const nodeTimers: StreamTimers = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

export class Heartbeat {
  private next: unknown;
  private deadline: unknown;
  private stopped = false;

  constructor(
    private readonly timers: StreamTimers,
    private readonly intervalMs: number,
    private readonly timeoutMs: number,
    /** Sends a ping; settles when the reply (or an error frame) arrives. */
    private readonly ping: () => Promise<unknown>,
    private readonly onDead: () => void,
  ) {}

  start(): void {
    this.next = this.timers.setTimeout(() => this.beat(), this.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    this.timers.clearTimeout(this.next);
    this.timers.clearTimeout(this.deadline);
  }

  private beat(): void {
    if (this.stopped) return;
    this.deadline = this.timers.setTimeout(() => {
      if (this.stopped) return;
      this.stop();
      this.onDead();
    }, this.timeoutMs);
    // Any answer, even an error frame, shows the peer is alive; a send that fails is left to the
    // socket's close handler (and, if it never comes, to the deadline).
    const answered = () => {
      if (this.stopped) return;
      this.timers.clearTimeout(this.deadline);
      this.start();
    };
    this.ping().then(answered, (err: unknown) => {
      if ((err as { code?: unknown })?.code !== undefined) answered();
    });
  }
}
