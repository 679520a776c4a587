/**
 * One stream per engine, merged into the one a program sees (DESIGN 11: markets on several
 * engines). Each engine's connection is its own (verified socket, login with that engine's token,
 * reconnects); every event it receives is passed on with `engine`, that engine's base URL. The
 * client's own engine must connect; another engine that cannot be reached or verified is reported
 * as an `error` event naming it, and the other engines' events keep coming.
 */
import { engineError, type EngineEntry } from '../engines.js';
import { StreamConnection } from './connection.js';
import { Listeners, type EventSource } from './listeners.js';
import type { CreateStreamParameters, ReceivedEvent } from './types.js';

/** What the stream client holds: one connection, or every engine's merged. */
export interface StreamSource extends EventSource<ReceivedEvent> {
  readonly isClosed: boolean;
  readonly reconnects: number;
  connect(): Promise<void>;
  close(): Promise<void>;
  send(frame: Record<string, unknown>): Promise<unknown>;
}

const FORWARDED = ['order', 'fill', 'tree', 'disconnected', 'reconnected', 'error'] as const;

/** The merged streams of `engines` (the client's own first, always opened: requests go to it). */
export class EngineStreams implements StreamSource {
  private readonly listeners = new Listeners<ReceivedEvent>();
  private readonly connections: { baseUrl: string; connection: StreamConnection }[] = [];
  /** Engines whose session could not be opened: reported once connected. */
  private readonly unopened: { baseUrl: string; error: Error }[] = [];
  private closed = false;

  constructor(engines: readonly EngineEntry[], params: CreateStreamParameters = {}) {
    // The tree channel is the one ledger's, the same at every engine: the own engine's alone.
    const marketChannels = (params.channels ?? ['orders', 'fills']).filter((c) => c !== 'tree');
    engines.forEach((e, i) => {
      if (!e.session) this.unopened.push({ baseUrl: e.baseUrl, error: e.error });
      else if (i === 0 || marketChannels.length > 0) {
        const own = i === 0 ? params : { ...params, channels: marketChannels };
        this.connections.push({ baseUrl: e.baseUrl, connection: new StreamConnection(e.session, own) });
      }
    });
    for (const { baseUrl, connection } of this.connections)
      for (const type of FORWARDED)
        connection.on(type, (e: ReceivedEvent) => this.listeners.emit({ ...e, engine: baseUrl }));
    // The own engine's stream ending (close, a suspended account) ends the merged one.
    this.connections[0]!.connection.on('closed', () => void this.close());
  }

  readonly on: EventSource<ReceivedEvent>['on'] = (type, listener) => this.listeners.on(type, listener);

  get isClosed(): boolean {
    return this.closed;
  }

  get reconnects(): number {
    return this.connections.reduce((n, c) => n + c.connection.reconnects, 0);
  }

  /**
   * Connects every engine's stream: the own one must; another's failure is an `error` event,
   * emitted once the caller holds the stream (a macrotask later), so its listeners hear it.
   */
  async connect(): Promise<void> {
    const [own, ...others] = this.connections;
    await own!.connection.connect();
    const failed = [...this.unopened];
    this.unopened.length = 0;
    await Promise.all(
      others.map(({ baseUrl, connection }) =>
        connection
          .connect()
          .catch((err: unknown) => failed.push({ baseUrl, error: engineError(baseUrl, err) })),
      ),
    );
    if (failed.length > 0)
      setImmediate(() => {
        for (const { baseUrl, error } of failed)
          this.listeners.emit({ type: 'error', error, engine: baseUrl });
      });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.connections.map((c) => c.connection.close()));
    this.listeners.emit({ type: 'closed' });
  }

  /** Sends a request frame on the client's own engine's stream. */
  send(frame: Record<string, unknown>): Promise<unknown> {
    return this.connections[0]!.connection.send(frame);
  }
}
