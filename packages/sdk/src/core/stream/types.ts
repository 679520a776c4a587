/**
 * The stream's public types: what its connection receives, the events its client delivers, why
 * it resyncs, and its options.
 */
import type { FillEvent, OrderEvent, StreamChannel, TreeEvent } from '@nightjar/protocol';
import type { StreamTimers } from './heartbeat.js';

/** Why the stream resynchronised. */
export type ResyncReason = 'seq_gap' | 'events_missed' | 'closed' | 'heartbeat';

/**
 * Which engine an event came from (its base URL), when the venue runs markets on several: each
 * engine has its own stream, merged into the one a program sees.
 */
export interface FromEngine {
  engine?: string;
}

/** What the stream's connection receives: the venue's events as they come, and its own doings. */
export type ReceivedEvent = FromEngine &
  (
    | { type: 'order'; event: OrderEvent }
    | { type: 'fill'; event: FillEvent }
    | { type: 'tree'; event: TreeEvent }
    /** The socket is gone (`reason`, and the close code when it closed); reconnecting begins. */
    | { type: 'disconnected'; reason: ResyncReason; code?: number }
    /** A new socket is logged in and subscribed again; what the old one missed is unknown. */
    | { type: 'reconnected'; reason: ResyncReason; disconnectedAt: number }
    | { type: 'error'; error: Error }
    /** Closed for good (by `close`, or a suspended account). */
    | { type: 'closed' }
  );

/** Events the stream client delivers, each with the `engine` it came from (a merged stream). */
export type StreamClientEvent = FromEngine &
  /** An order event; `source: 'resync'` when it was inferred from the order lookup after a reconnect. */
  (
    | { type: 'order'; event: OrderEvent; source: 'stream' | 'resync' }
    /** A fill memo; `stored` when the wallet verified and stored its notes. */
    | { type: 'fill'; event: FillEvent; stored: boolean }
    | { type: 'tree'; event: TreeEvent }
    /**
     * The connection was lost (`reason`; `code`, the WebSocket close code, when the venue closed it).
     * The stream reconnects by itself; events until `reconnected` are not seen live (the resync
     * re-reads what they changed).
     */
    | { type: 'disconnected'; reason: ResyncReason; code?: number }
    /** The stream reconnected; tracked orders and the wallet were re-read. */
    | { type: 'resync'; reason: ResyncReason }
    /**
     * Connected again after a `disconnected` with the same `reason`, and resynced (delivered right
     * after `resync`): the program's view is whole again. `downtimeMs`: from the disconnection.
     */
    | { type: 'reconnected'; reason: ResyncReason; downtimeMs: number }
    | { type: 'error'; error: Error }
  );

/** Options of `createStream`. */
export interface CreateStreamParameters {
  /** Default `['orders', 'fills']`. */
  channels?: StreamChannel[];
  /** Ask the engine to cancel this session's resting orders when the socket closes. */
  cancelOnDisconnect?: boolean;
  /** Ping interval (default 20 s; the engine drops a session silent for 60 s). */
  pingIntervalMs?: number;
  /**
   * How long a ping may go unanswered before the connection is presumed dead and replaced
   * (default 10 s; reconnect reason `heartbeat`).
   */
  pongTimeoutMs?: number;
  /**
   * Most events the async iterator buffers before the oldest are dropped (default 1,000); the
   * iterator then yields one `error` event (`STREAM_OVERFLOW`, with `dropped`) in their place.
   * The wallet is updated before events are buffered, so an overflow loses notifications only.
   * Listeners (`on`) are called at once and never buffered.
   */
  maxQueuedEvents?: number;
  /** Timer functions (tests drive the heartbeat with a manual clock). */
  timers?: StreamTimers;
  /** First reconnect delay (default 100 ms, jittered, doubling) and the longest (default 5 s). */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Awaited before each reconnect attempt (e.g. to pause a bot until the operator allows it). */
  beforeReconnect?: () => Promise<void>;
}
