/**
 * The stream's connection: one verified WebSocket to `/v1/stream` that logs in, subscribes,
 * pings, refreshes its token on `auth_expired`, and on a seq gap or any unexpected close (1011
 * above all) reconnects with backoff on a freshly verified socket, logs in and subscribes again,
 * then says so (`reconnected`). It reports what it receives as events and keeps no view of its
 * own: what a reconnect hid is for its followers (the wallet's, `wallet/follow-stream.ts`) to read.
 */
import { randomBytes } from 'node:crypto';
import type WebSocket from 'ws';
import {
  FRAME_SIZE_BUCKETS,
  padJsonText,
  parseJsonExact,
  stringifyJson,
  STREAM_CLOSE_CODES,
  type FillEvent,
  type OrderEvent,
  type TreeEvent,
} from '@nightjar/protocol';
import type { VenueSession } from '../session.js';
import { backoffDelay, sleep } from '../utils/backoff.js';
import { Heartbeat, nodeTimers } from './heartbeat.js';
import { Listeners, type EventSource } from './listeners.js';
import type { CreateStreamParameters, ReceivedEvent, ResyncReason } from './types.js';
import { NIGHTJAR_ERROR__STREAM_CLOSED, NightjarError, venueError } from '../errors/index.js';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

const INT_FIELDS = ['seq', 'server_time_ms', 'tree_id', 'expires_at', 'code'] as const;

function normalize(frame: Record<string, unknown>): Record<string, unknown> {
  for (const k of INT_FIELDS) if (typeof frame[k] === 'bigint') frame[k] = Number(frame[k]);
  return frame;
}

/** A resilient, logged-in subscription to the venue's stream; its events are what it received. */
export class StreamConnection implements EventSource<ReceivedEvent> {
  private readonly listeners = new Listeners<ReceivedEvent>();
  private ws: WebSocket | undefined;
  private lastSeq = 0;
  private closed = false;
  private heartbeat: Heartbeat | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<string, Pending>();
  private reconnecting: Promise<void> | undefined;
  /** Completed reconnects. */
  reconnects = 0;

  constructor(
    private readonly client: VenueSession,
    private readonly params: CreateStreamParameters = {},
  ) {}

  on<T extends ReceivedEvent['type']>(
    type: T,
    listener: (event: Extract<ReceivedEvent, { type: T }>) => void,
  ): () => void {
    return this.listeners.on(type, listener);
  }

  /** Whether `close` was called (or the account was suspended). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Opens, logs in and subscribes. */
  async connect(): Promise<void> {
    const { ws } = await this.client.transport.openWebSocket('/v1/stream');
    this.ws = ws;
    this.lastSeq = 0;
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onFrame(data.toString());
    });
    ws.on('close', (code) => this.onClose(ws, code));
    ws.on('error', () => undefined);
    try {
      await this.login();
      await this.send({ op: 'subscribe', channels: this.params.channels ?? ['orders', 'fills'] });
    } catch (err) {
      if (this.ws === ws) this.ws = undefined;
      ws.terminate();
      throw err;
    }
    this.heartbeat?.stop();
    this.heartbeat = new Heartbeat(
      this.params.timers ?? nodeTimers,
      this.params.pingIntervalMs ?? 20_000,
      this.params.pongTimeoutMs ?? 10_000,
      () => this.send({ op: 'ping' }, ws),
      () => {
        if (ws === this.ws) this.reconnect('heartbeat');
      },
    );
    this.heartbeat.start();
  }

  /** Closes the stream for good (a `logout`, then the socket). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.heartbeat?.stop();
    clearTimeout(this.refreshTimer);
    const ws = this.ws;
    this.ws = undefined;
    if (ws && ws.readyState === ws.OPEN) {
      await this.send({ op: 'logout' }, ws).catch(() => undefined);
      ws.close();
    }
    this.rejectPending('stream closed');
    this.listeners.emit({ type: 'closed' });
  }

  /**
   * `auth_expired`: log in again on this socket with a fresh token, `refreshLeadMs` before the
   * session's expiry (halfway through a short token's life), so subscriptions stay.
   */
  private scheduleRefresh(expiresAt: number): void {
    clearTimeout(this.refreshTimer);
    const t = this.client.tokenExpiry();
    const lead = Math.min(this.client.refreshLeadMs, (t?.lifetimeMs ?? 0) / 2);
    const ws = this.ws;
    this.refreshTimer = setTimeout(
      () => {
        if (this.closed || ws !== this.ws) return;
        const current = this.client.tokenExpiry();
        const fresh =
          current && current.expiresAt > expiresAt ? this.client.accessToken() : this.client.refreshToken();
        fresh
          .then((token) => this.send({ op: 'login', token }))
          .catch((error: Error) => this.listeners.emit({ type: 'error', error }));
      },
      Math.max(0, expiresAt - Date.now() - lead),
    );
    this.refreshTimer.unref();
  }

  private async login(): Promise<void> {
    const token = await this.client.accessToken();
    await this.send({
      op: 'login',
      token,
      ...(this.params.cancelOnDisconnect === undefined
        ? {}
        : { cancel_on_disconnect: this.params.cancelOnDisconnect }),
    });
  }

  /** Sends a request frame and resolves with its reply's `result`. */
  send(frame: Record<string, unknown>, ws: WebSocket | undefined = this.ws): Promise<unknown> {
    if (!ws || ws.readyState !== ws.OPEN)
      return Promise.reject(
        new NightjarError(NIGHTJAR_ERROR__STREAM_CLOSED, { detail: 'stream is not connected' }),
      );
    const requestId = randomBytes(8).toString('hex');
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      // Padded to a size bucket like the engine's frames: an order.place looks like a ping.
      const text = padJsonText(stringifyJson({ ...frame, request_id: requestId }), FRAME_SIZE_BUCKETS);
      ws.send(text, (err) => {
        if (err) {
          this.pending.delete(requestId);
          reject(err);
        }
      });
    });
  }

  private onFrame(text: string): void {
    let frame: Record<string, unknown>;
    try {
      frame = normalize(parseJsonExact(text, 64) as Record<string, unknown>);
    } catch {
      return;
    }
    const seq = frame.seq as number;
    if (typeof seq === 'number') {
      if (this.lastSeq !== 0 && seq !== this.lastSeq + 1) {
        this.lastSeq = seq;
        this.reconnect('seq_gap');
        return;
      }
      this.lastSeq = seq;
    }
    const requestId = typeof frame.request_id === 'string' ? frame.request_id : undefined;
    const pending = requestId ? this.pending.get(requestId) : undefined;
    if (frame.op === 'error') {
      const err = venueError(frame.code as number, 0, String(frame.message));
      if (pending) {
        this.pending.delete(requestId!);
        pending.reject(err);
      } else this.listeners.emit({ type: 'error', error: err });
      return;
    }
    if (frame.op === 'auth_expired') {
      this.scheduleRefresh(frame.expires_at as number);
      return;
    }
    if (pending && frame.op !== undefined) {
      this.pending.delete(requestId!);
      pending.resolve(frame.result);
      return;
    }
    if (frame.channel === 'orders')
      this.listeners.emit({ type: 'order', event: frame as unknown as OrderEvent });
    else if (frame.channel === 'fills')
      this.listeners.emit({ type: 'fill', event: frame as unknown as FillEvent });
    else if (frame.channel === 'tree')
      this.listeners.emit({ type: 'tree', event: frame as unknown as TreeEvent });
  }

  private onClose(ws: WebSocket, code: number): void {
    if (ws !== this.ws) return;
    this.ws = undefined;
    this.heartbeat?.stop();
    this.rejectPending(`stream closed (${code})`);
    if (this.closed) return;
    if (code === STREAM_CLOSE_CODES.suspended) {
      this.listeners.emit({ type: 'error', error: venueError(1150, 403, 'account suspended') });
      void this.close();
      return;
    }
    this.reconnect(code === STREAM_CLOSE_CODES.eventsMissed ? 'events_missed' : 'closed', code);
  }

  private rejectPending(why: string): void {
    for (const p of this.pending.values())
      p.reject(new NightjarError(NIGHTJAR_ERROR__STREAM_CLOSED, { detail: why }));
    this.pending.clear();
  }

  /** Emits `disconnected`, reconnects with backoff, then emits `reconnected`. */
  private reconnect(reason: ResyncReason, code?: number): void {
    if (this.reconnecting || this.closed) return;
    const disconnectedAt = Date.now();
    this.listeners.emit({ type: 'disconnected', reason, ...(code === undefined ? {} : { code }) });
    const old = this.ws;
    this.ws = undefined;
    this.heartbeat?.stop();
    old?.terminate();
    // Requests on the old socket will never be answered.
    this.rejectPending(`stream reconnecting (${reason})`);
    this.reconnecting = (async () => {
      const backoff = {
        baseMs: this.params.reconnectDelayMs ?? 100,
        maxMs: this.params.maxReconnectDelayMs ?? 5_000,
      };
      for (let attempt = 0; !this.closed; attempt++) {
        await sleep(backoffDelay(attempt, backoff));
        await this.params.beforeReconnect?.();
        if (this.closed) break;
        try {
          await this.connect();
          break;
        } catch (error) {
          this.listeners.emit({ type: 'error', error: error as Error });
        }
      }
      if (this.closed) return;
      this.reconnects++;
      this.listeners.emit({ type: 'reconnected', reason, disconnectedAt });
    })().finally(() => (this.reconnecting = undefined));
  }
}
