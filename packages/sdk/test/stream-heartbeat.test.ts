/**
 * 16.22d: the stream client notices a silently dead connection (a ping nobody answers) and
 * reconnects, with time driven by a manual clock; and its iterator buffer is bounded. Against a
 * real WebSocket server that speaks the stream's request/reply frames (login, subscribe, ping).
 */
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createStream, type Client, type StreamClientEvent, type StreamTimers } from '../src/index.js';
import type { NightjarError } from '../src/index.js';
import { NIGHTJAR_ERROR__STREAM_OVERFLOW, isNightjarError } from '../src/index.js';

/** Timers that fire only when the test advances the clock. */
class ManualTimers implements StreamTimers {
  private now = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void; ms: number }>();
  private readonly watchers: { ms: number; resolve: () => void }[] = [];

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.nextId;
    this.timers.set(id, { at: this.now + ms, fn, ms });
    for (const w of this.watchers.filter((x) => x.ms === ms)) {
      this.watchers.splice(this.watchers.indexOf(w), 1);
      w.resolve();
    }
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Resolves when a timer of `ms` is next scheduled. */
  scheduled(ms: number): Promise<void> {
    return new Promise((resolve) => this.watchers.push({ ms, resolve }));
  }
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= target)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = target;
  }
}

/** A stream endpoint: replies to requests, counts connections and pings, answers pings only while `answering`. */
async function streamServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const state = {
    connections: 0,
    answering: true,
    pings: 0,
    pingSeen: undefined as (() => void) | undefined,
  };
  const senders = new Set<(frame: Record<string, unknown>) => void>();
  wss.on('connection', (ws) => {
    state.connections++;
    let seq = 0;
    const send = (frame: Record<string, unknown>) => ws.send(JSON.stringify({ ...frame, seq: ++seq }));
    senders.add(send);
    ws.on('close', () => senders.delete(send));
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { op: string; request_id: string };
      if (frame.op === 'ping') {
        state.pings++;
        state.pingSeen?.();
        if (state.answering) send({ op: 'pong', request_id: frame.request_id, result: {} });
        return;
      }
      send({ op: frame.op, request_id: frame.request_id, result: {} });
    });
  });
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
  const nextPing = () => new Promise<void>((r) => (state.pingSeen = r));
  /** Pushes `frames` on every open connection. */
  const push = (frames: Record<string, unknown>[]) => {
    for (const send of senders) for (const f of frames) send(f);
  };
  return { state, url, nextPing, push, close: () => new Promise((r) => wss.close(r)) };
}

/** Just what the stream client needs of a client: sockets (unverified here) and a token. */
function socketClient(url: string): Client {
  const client = {
    transport: {
      async openWebSocket(path: string) {
        const ws = new WebSocket(url + path);
        await once(ws, 'open');
        return { ws };
      },
    },
    accessToken: async () => 'token',
    refreshToken: async () => 'token',
    tokenExpiry: () => undefined,
    refreshLeadMs: 60_000,
    hasWallet: false,
    baseUrl: url,
  } as unknown as Client;
  // One engine: the stream opens only this socket.
  return Object.assign(client, { engines: async () => [{ baseUrl: url, session: client }] });
}

let server: Awaited<ReturnType<typeof streamServer>>;
beforeEach(async () => {
  server = await streamServer();
});
afterEach(async () => {
  await server.close();
});

describe('stream heartbeat (16.22d)', () => {
  it('a server that stops answering pings is noticed at the pong deadline and the stream reconnects', async () => {
    const timers = new ManualTimers();
    const beat = timers.scheduled(1_000);
    const stream = await createStream(socketClient(server.url), {
      timers,
      pingIntervalMs: 1_000,
      pongTimeoutMs: 500,
      reconnectDelayMs: 1,
    });
    const resyncs: StreamClientEvent[] = [];
    const resynced = new Promise<void>((r) =>
      stream.on('resync', (e) => {
        resyncs.push(e);
        r();
      }),
    );
    try {
      await beat;
      // Answered: the deadline is cleared and the next beat scheduled; nothing reconnects.
      let ping = server.nextPing();
      const next = timers.scheduled(1_000);
      timers.advance(1_000);
      await ping;
      await next;
      timers.advance(600);
      expect(server.state.connections).toBe(1);
      expect(stream.reconnects).toBe(0);
      // Silent from now on: one interval later a ping goes out, and its deadline passes.
      server.state.answering = false;
      ping = server.nextPing();
      timers.advance(400);
      await ping;
      expect(server.state.pings).toBe(2);
      expect(server.state.connections).toBe(1);
      timers.advance(500);
      await resynced;
      expect(resyncs).toEqual([{ type: 'resync', reason: 'heartbeat', engine: server.url }]);
      expect(server.state.connections).toBe(2);
      expect(stream.reconnects).toBe(1);
    } finally {
      await stream.close();
    }
  });
});

describe('stream event buffer (16.22d)', () => {
  it('holds at most maxQueuedEvents; the iterator then yields one overflow error and the newest events', async () => {
    const pushes = Array.from({ length: 50 }, (_, i) => ({
      channel: 'tree',
      tree_id: 0,
      leaf_index: i,
      value: '00'.repeat(32),
      merkle_root: '00'.repeat(32),
      slot: 1,
    }));
    let heard = 0;
    let allHeard!: () => void;
    const done = new Promise<void>((r) => (allHeard = r));
    const stream = await createStream(socketClient(server.url), {
      maxQueuedEvents: 10,
      timers: new ManualTimers(),
    });
    stream.on('tree', () => {
      if (++heard === 50) allHeard();
    });
    try {
      server.push(pushes);
      await done;
      // Listeners heard every event; the iterator, never read, holds only the newest 10.
      expect(stream.queuedEvents).toBe(10);
      const it = stream[Symbol.asyncIterator]();
      const first = (await it.next()).value as StreamClientEvent;
      expect(first.type).toBe('error');
      const error = (first as { error: Error }).error;
      expect(isNightjarError(error, NIGHTJAR_ERROR__STREAM_OVERFLOW)).toBe(true);
      expect((error as NightjarError<typeof NIGHTJAR_ERROR__STREAM_OVERFLOW>).context.dropped).toBe(40);
      const rest: number[] = [];
      for (let i = 0; i < 10; i++) {
        const e = (await it.next()).value as StreamClientEvent;
        if (e.type === 'tree') rest.push(Number(e.event.leaf_index));
      }
      expect(rest).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
      expect(stream.queuedEvents).toBe(0);
    } finally {
      await stream.close();
    }
  });
});
