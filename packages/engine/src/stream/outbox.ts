/**
 * One session's outgoing frames and its back-pressure. A frame goes straight to the socket while
 * the socket takes it (the kernel's buffers and Node's one high-water mark come first); once the
 * socket needs draining, frames wait here, and a backlog beyond the limit means the consumer is too
 * slow: {@link Outbox.push} reports the overflow and the session is closed with 1011. Writes made in
 * one turn of the event loop are corked, so a burst becomes few TLS records and system calls.
 * Every frame leaves padded with trailing whitespace to a size bucket (`FRAME_SIZE_BUCKETS`), so a
 * fill push, an order event, a tree leaf and a pong all look alike by size (issue 30, item 5).
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { FRAME_SIZE_BUCKETS, padJsonText } from '@nightjar/protocol';

export class Outbox {
  private queue: string[] = [];
  /** `performance.now()` of each queued frame's source event, or NaN (replies). */
  private stamps: number[] = [];
  private head = 0;
  private corked = false;
  private closed = false;
  private readonly uncork = () => {
    this.corked = false;
    this.socket.uncork();
  };
  private readonly onDrain = () => this.flush();

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    private readonly limit: number,
    private readonly onSent?: (latencyMs: number) => void,
  ) {
    socket.on('drain', this.onDrain);
  }

  /** Frames waiting for the socket. */
  get backlog(): number {
    return this.queue.length - this.head;
  }

  /** Queues or writes one frame; false when the backlog has overflowed (the caller closes the session). */
  push(text: string, emittedAt = NaN): boolean {
    if (this.closed) return true;
    if (this.backlog === 0 && !this.socket.writableNeedDrain) {
      this.write(text, emittedAt);
      return true;
    }
    this.queue.push(text);
    this.stamps.push(emittedAt);
    return this.backlog <= this.limit;
  }

  /** Writes what the socket will take now; the rest waits for `drain`. */
  flush(): void {
    while (this.backlog > 0 && !this.closed && !this.socket.writableNeedDrain) this.writeHead();
    this.compact();
  }

  /** Before a clean close: hands every waiting frame to the socket regardless of its buffer (at most `limit`). */
  flushAll(): void {
    while (this.backlog > 0 && !this.closed) this.writeHead();
    this.compact();
  }

  /** Drops the backlog and stops writing (a 1011 close, or the socket is gone). */
  close(): void {
    this.closed = true;
    this.queue = [];
    this.stamps = [];
    this.head = 0;
    this.socket.off('drain', this.onDrain);
  }

  private writeHead(): void {
    const text = this.queue[this.head]!;
    const stamp = this.stamps[this.head]!;
    this.head++;
    this.write(text, stamp);
  }

  private write(json: string, emittedAt: number): void {
    const text = padJsonText(json, FRAME_SIZE_BUCKETS, { beyond: 'multiple' });
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(this.uncork);
    }
    const onSent = this.onSent;
    if (onSent && !Number.isNaN(emittedAt)) {
      this.ws.send(text, (err) => {
        if (!err) onSent(performance.now() - emittedAt);
      });
    } else this.ws.send(text);
  }

  private compact(): void {
    if (this.head === this.queue.length) {
      this.queue = [];
      this.stamps = [];
      this.head = 0;
    } else if (this.head > 1024) {
      this.queue = this.queue.slice(this.head);
      this.stamps = this.stamps.slice(this.head);
      this.head = 0;
    }
  }
}
