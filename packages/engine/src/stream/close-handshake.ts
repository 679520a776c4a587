/**
 * How a server-side close reaches a client that is not reading. The close frame is written only
 * once the socket has taken everything written before it: while a paused reader's kernel buffers
 * are full, the socket stays open with nothing queued of its own (the session's backlog is already
 * dropped, so memory stays bounded), and a client that resumes reading within the 60 s silence
 * window still receives the close code (1011, not 1006). A client silent for more than 60 s, or
 * 60 s after the close began at the latest, is cut off. Once the frame is out, a peer that never
 * answers it is cut off after the close grace.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { StreamClock } from './clock.js';
import type { StreamLimits } from './options.js';

export class CloseHandshake {
  private cancelTimer: (() => void) | undefined;
  private onDrain: (() => void) | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    private readonly clock: StreamClock,
    private readonly limits: Pick<StreamLimits, 'idleDropMs' | 'closeGraceMs'>,
    /** When the client was last heard from (any frame, transport pings too). */
    private readonly lastHeardAt: () => number,
  ) {}

  start(code: number, reason: string): void {
    if (!this.socket.writableNeedDrain) return this.sendCloseFrame(code, reason);
    this.onDrain = () => this.sendCloseFrame(code, reason);
    this.socket.once('drain', this.onDrain);
    this.armSilence(this.clock.now() + this.limits.idleDropMs + 1);
  }

  /** The socket is gone: no timer or listener may outlive it. */
  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.onDrain) this.socket.off('drain', this.onDrain);
    this.onDrain = undefined;
  }

  private sendCloseFrame(code: number, reason: string): void {
    this.stop();
    this.ws.close(code, reason);
    this.cancelTimer = this.clock.at(this.clock.now() + this.limits.closeGraceMs, () => this.ws.terminate());
  }

  private armSilence(latest: number): void {
    const limit = this.limits.idleDropMs;
    this.cancelTimer = this.clock.at(Math.min(this.lastHeardAt() + limit + 1, latest), () => {
      const now = this.clock.now();
      if (now >= latest || now - this.lastHeardAt() > limit) this.ws.terminate();
      else this.armSilence(latest);
    });
  }
}
