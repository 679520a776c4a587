/**
 * The stream client: one verified WebSocket to `/v1/stream` that logs in, subscribes, pings,
 * refreshes its token on `auth_expired`, and on a seq gap or any unexpected close (1011 above all)
 * reconnects with backoff on a freshly verified socket, logs in and subscribes again, re-reads the
 * tracked orders and resyncs the tree, then emits a typed `resync` event. Order, fill and tree
 * events come as callbacks (`on`) and as an async iterator.
 */
import { randomBytes } from 'node:crypto';
import type WebSocket from 'ws';
import {
  parseJsonExact,
  stringifyJson,
  STREAM_CLOSE_CODES,
  type FillEvent,
  type OrderEvent,
  type TreeEvent,
} from '@nightjar/protocol';
import type { Client } from '../client.js';
import { NightjarError, venueError } from '../errors.js';
import { backoffDelay, sleep } from '../utils/backoff.js';
import { refreshOrder } from '../actions/refresh-order.js';
import { refreshNoteStates } from '../actions/note-states.js';
import { syncLeaves, syncWallet } from '../actions/sync-wallet.js';
import { applyOrderEvent, isLiveStatus, statusFromEvent } from '../wallet/order-status.js';
import { EventQueue } from './event-queue.js';
import { Heartbeat, nodeTimers } from './heartbeat.js';
import type { CreateStreamParameters, EventOf, ResyncReason, StreamClientEvent } from './types.js';

export type { CreateStreamParameters, ResyncReason, StreamClientEvent } from './types.js';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

const INT_FIELDS = ['seq', 'server_time_ms', 'tree_id', 'expires_at', 'code'] as const;

function normalize(frame: Record<string, unknown>): Record<string, unknown> {
  for (const k of INT_FIELDS) if (typeof frame[k] === 'bigint') frame[k] = Number(frame[k]);
  return frame;
}

/**
 * A resilient subscription to the venue's stream. Create it with `createStream(client, ...)`.
 */
export class StreamClient implements AsyncIterable<StreamClientEvent> {
  private ws: WebSocket | undefined;
  private lastSeq = 0;
  private closed = false;
  private heartbeat: Heartbeat | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Map<string, Set<(e: StreamClientEvent) => void>>();
  private readonly queue: EventQueue<StreamClientEvent>;
  private reconnecting: Promise<void> | undefined;
  /** Last order event kind seen per order, to infer what a disconnection hid. */
  private readonly seen = new Map<string, { kind: string; filled: bigint }>();
  /** Completed reconnects. */
  reconnects = 0;

  constructor(
    private readonly client: Client,
    private readonly params: CreateStreamParameters = {},
  ) {
    this.queue = new EventQueue<StreamClientEvent>(params.maxQueuedEvents ?? 1_000, (error) => ({
      type: 'error',
      error,
    }));
  }

  /** Events the async iterator holds that were not taken yet (at most `maxQueuedEvents`). */
  get queuedEvents(): number {
    return this.queue.size;
  }

  /** Registers a callback for one event type; returns the unsubscribe function. */
  on<T extends StreamClientEvent['type']>(type: T, listener: (event: EventOf<T>) => void): () => void {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set);
    const l = listener as (e: StreamClientEvent) => void;
    set.add(l);
    return () => set.delete(l);
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamClientEvent> {
    return {
      next: () => {
        const e = this.queue.take();
        if (e) return Promise.resolve({ value: e, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return this.queue.wait();
      },
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }

  /** Opens, logs in and subscribes (used by `createStream`). */
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
    for (const p of this.pending.values()) p.reject(new NightjarError('stream closed'));
    this.pending.clear();
    this.queue.end();
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
          .catch((error: Error) => this.emit({ type: 'error', error }));
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
    if (!ws || ws.readyState !== ws.OPEN) return Promise.reject(new NightjarError('stream is not connected'));
    const requestId = randomBytes(8).toString('hex');
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      ws.send(stringifyJson({ ...frame, request_id: requestId }), (err) => {
        if (err) {
          this.pending.delete(requestId);
          reject(err);
        }
      });
    });
  }

  private emit(e: StreamClientEvent): void {
    for (const l of this.listeners.get(e.type) ?? []) l(e);
    this.queue.push(e);
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
      } else this.emit({ type: 'error', error: err });
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
    if (frame.channel === 'orders') this.onOrder(frame as unknown as OrderEvent, 'stream');
    else if (frame.channel === 'fills') void this.onFill(frame as unknown as FillEvent);
    else if (frame.channel === 'tree') this.emit({ type: 'tree', event: frame as unknown as TreeEvent });
  }

  private onOrder(event: OrderEvent, source: 'stream' | 'resync'): void {
    const filled = event.filled_quantity === undefined ? undefined : BigInt(event.filled_quantity);
    const prev = this.seen.get(event.order_id);
    // Kept for live orders only (a terminal event is an order's last), so the map stays bounded.
    if (isLiveStatus(statusFromEvent(event.kind)))
      this.seen.set(event.order_id, { kind: event.kind, filled: filled ?? prev?.filled ?? 0n });
    else this.seen.delete(event.order_id);
    if (this.client.hasWallet) {
      const o = this.client.wallet.orders.get(event.order_id);
      if (o) {
        const wasLive = isLiveStatus(o.status);
        applyOrderEvent(o, event.kind, filled);
        this.client.wallet.save();
        if (wasLive && !isLiveStatus(o.status)) this.readNoteState(o.noteCommitment);
      }
    }
    this.emit({ type: 'order', event, source });
  }

  /**
   * An order ended: its note's state is the ledger's (locked after a failed settlement, until the
   * lock expires; spent after a fill; free after a cancel).
   */
  private readNoteState(commitment: string): void {
    const wallet = this.client.wallet;
    const note = wallet.notes.get(commitment);
    if (!note) return;
    refreshNoteStates(this.client, [note])
      .then(() => wallet.save())
      .catch((error: Error) => this.emit({ type: 'error', error }));
  }

  private async onFill(event: FillEvent): Promise<void> {
    let stored = false;
    if (this.client.hasWallet) {
      try {
        const wallet = this.client.wallet;
        await syncLeaves(this.client);
        const o = wallet.orders.get(event.order_id);
        const mints = o ? [o.baseMint, o.quoteMint] : [];
        const r = wallet.ingestMemo(event.memo, mints);
        stored = r.status === 'stored';
        // The consumed note is `spending` now; the ledger says whether it is spent.
        if (r.status === 'stored') await refreshNoteStates(this.client, [r.consumed]);
        wallet.save();
      } catch (error) {
        this.emit({ type: 'error', error: error as Error });
      }
    }
    this.emit({ type: 'fill', event, stored });
  }

  private onClose(ws: WebSocket, code: number): void {
    if (ws !== this.ws) return;
    this.ws = undefined;
    this.heartbeat?.stop();
    this.rejectPending(`stream closed (${code})`);
    if (this.closed) return;
    if (code === STREAM_CLOSE_CODES.suspended) {
      this.emit({ type: 'error', error: venueError(1150, 403, 'account suspended') });
      void this.close();
      return;
    }
    this.reconnect(code === STREAM_CLOSE_CODES.eventsMissed ? 'events_missed' : 'closed');
  }

  private rejectPending(why: string): void {
    for (const p of this.pending.values()) p.reject(new NightjarError(why));
    this.pending.clear();
  }

  /** Reconnects with backoff, then re-reads tracked orders and the wallet, then emits `resync`. */
  private reconnect(reason: ResyncReason): void {
    if (this.reconnecting || this.closed) return;
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
          this.emit({ type: 'error', error: error as Error });
        }
      }
      if (this.closed) return;
      this.reconnects++;
      await this.resync().catch((error: Error) => this.emit({ type: 'error', error }));
      this.emit({ type: 'resync', reason });
    })().finally(() => (this.reconnecting = undefined));
  }

  /**
   * Re-reads every tracked live order through the wallet's one status mapping and emits what the
   * disconnection hid; then resyncs the wallet. An order whose lookup fails (5001, the network)
   * keeps its status and its note: the failure is reported as an `error` event.
   */
  private async resync(): Promise<void> {
    if (!this.client.hasWallet) return;
    const wallet = this.client.wallet;
    for (const o of wallet.orders.values()) {
      if (!isLiveStatus(o.status)) continue;
      let kind: OrderEvent['kind'] | undefined;
      try {
        kind = await refreshOrder(this.client, o);
      } catch (error) {
        this.emit({ type: 'error', error: error as Error });
        continue;
      }
      wallet.save();
      if (!kind || this.seen.get(o.orderId)?.kind === kind) continue;
      this.onOrder(
        {
          channel: 'orders',
          seq: 0,
          order_id: o.orderId,
          market_id: '',
          server_time_ms: Date.now(),
          kind,
          filled_quantity: o.filledQuantity,
        },
        'resync',
      );
    }
    await syncWallet(this.client);
  }
}

/**
 * Opens the stream: a verified WebSocket, logged in and subscribed.
 *
 * @example
 * const stream = await createStream(client, { channels: ['orders', 'fills'] });
 * stream.on('order', ({ event }) => console.log(event.order_id, event.kind));
 * for await (const e of stream) if (e.type === 'resync') console.log('resynced');
 */
export async function createStream(
  client: Client,
  params: CreateStreamParameters = {},
): Promise<StreamClient> {
  const s = new StreamClient(client, params);
  await s.connect();
  return s;
}
