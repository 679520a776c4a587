/**
 * LISTEN on one channel of the job queue's database over a connection of its own, reconnecting
 * when the connection drops. Every (re)connection calls `onWake` too: notifications sent while it
 * was down are lost, so whoever listens looks again.
 */
import pg from 'pg';

export interface QueueListener {
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Wait between reconnection attempts (default 1,000 ms). */
  reconnectMs?: number;
}

export function listenQueue(
  url: string,
  channel: string,
  onWake: (payload: string | undefined) => void,
  options: ListenOptions = {},
): QueueListener {
  const reconnectMs = options.reconnectMs ?? 1_000;
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    client = undefined;
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, reconnectMs);
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    c.on('error', () => {}); // 'end' follows and reconnects
    c.on('end', () => {
      if (client === c) retry();
    });
    c.on('notification', (n) => {
      if (n.channel === channel) onWake(n.payload);
    });
    try {
      await c.connect();
      if (closed) return void (await c.end().catch(() => {}));
      client = c;
      await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
      onWake(undefined);
    } catch {
      await c.end().catch(() => {});
      if (client === c || client === undefined) retry();
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
