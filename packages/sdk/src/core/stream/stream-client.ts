/**
 * The stream client: what a program holds. It only delivers events, to callbacks (`on`) and to
 * a bounded async iterator, from an event source: the connection's events as received, or (with
 * a wallet) the wallet's follower, which applies each event to the wallet first
 * (`wallet/follow-stream.ts`; `createStream` wires it).
 *
 * Module map of `stream/`: `connection.ts` the socket (login, heartbeat, token refresh,
 * reconnects), `stream-client.ts` delivery, `event-queue.ts` the iterator's bounded buffer,
 * `heartbeat.ts` pings and their deadline, `listeners.ts` typed listeners, `unfollowed.ts` the
 * connection's events as delivered without a wallet, `types.ts` the events and options.
 */
import type { StreamSource } from './engine-streams.js';
import { EventQueue } from './event-queue.js';
import { Listeners, type EventSource } from './listeners.js';
import type { StreamClientEvent } from './types.js';

export type { CreateStreamParameters, ResyncReason, StreamClientEvent } from './types.js';

const DELIVERED = [
  'order',
  'fill',
  'tree',
  'disconnected',
  'resync',
  'reconnected',
  'error',
] as const satisfies StreamClientEvent['type'][];

/**
 * A resilient subscription to the venue's stream. Create it with `createStream(client, ...)`.
 */
export class StreamClient implements AsyncIterable<StreamClientEvent> {
  private readonly listeners = new Listeners<StreamClientEvent>();
  private readonly queue: EventQueue<StreamClientEvent>;

  constructor(
    private readonly connection: StreamSource,
    events: EventSource<StreamClientEvent>,
    maxQueuedEvents = 1_000,
  ) {
    this.queue = new EventQueue<StreamClientEvent>(maxQueuedEvents, (error) => ({ type: 'error', error }));
    for (const type of DELIVERED) events.on(type, (e: StreamClientEvent) => this.deliver(e));
    connection.on('closed', () => this.queue.end());
  }

  /** Completed reconnects. */
  get reconnects(): number {
    return this.connection.reconnects;
  }

  /** Events the async iterator holds that were not taken yet (at most `maxQueuedEvents`). */
  get queuedEvents(): number {
    return this.queue.size;
  }

  /** Registers a callback for one event type; returns the unsubscribe function. */
  on<T extends StreamClientEvent['type']>(
    type: T,
    listener: (event: Extract<StreamClientEvent, { type: T }>) => void,
  ): () => void {
    return this.listeners.on(type, listener);
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamClientEvent> {
    return {
      next: () => {
        const e = this.queue.take();
        if (e) return Promise.resolve({ value: e, done: false });
        if (this.connection.isClosed) return Promise.resolve({ value: undefined, done: true });
        return this.queue.wait();
      },
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }

  /** Opens, logs in and subscribes (used by `createStream`). */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  /** Closes the stream for good (a `logout`, then the socket). */
  close(): Promise<void> {
    return this.connection.close();
  }

  /** Sends a request frame and resolves with its reply's `result`. */
  send(frame: Record<string, unknown>): Promise<unknown> {
    return this.connection.send(frame);
  }

  private deliver(e: StreamClientEvent): void {
    this.listeners.emit(e);
    this.queue.push(e);
  }
}
