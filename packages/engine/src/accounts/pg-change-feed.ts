/**
 * The accounts change feed: one dedicated connection LISTENing on {@link ACCOUNTS_CHANNEL}, where
 * every write to the shared accounts NOTIFYs (in the writing statement, so a notification means a
 * committed change). A lost connection marks the store down and reconnects with backoff; once
 * connected again the watcher reloads everything (changes made meanwhile are caught up) and only
 * then is the store marked up.
 */
import pg from 'pg';
import type { PgHealth } from '../pg/health.js';
import type { StoreChange, StoreWatcher } from './store.js';

export const ACCOUNTS_CHANNEL = 'nightjar_accounts';
const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;

/** The notification payload: `a:<account id>` or `j:<jti>` (never a secret or a hash). */
export function parseChange(payload: string | undefined): StoreChange | undefined {
  const m = /^([aj]):([0-9a-f]{1,64})$/.exec(payload ?? '');
  if (m === null) return undefined;
  return m[1] === 'a' ? { accountId: m[2]! } : { jti: m[2]! };
}

export class PgChangeFeed {
  private client: pg.Client | undefined;
  private closed = false;
  private backoffMs = MIN_BACKOFF_MS;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly health: PgHealth,
    private readonly watcher: StoreWatcher,
  ) {
    health.onDown(() => {
      if (this.client) this.lost(this.client);
    });
  }

  start(): void {
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 2_000 });
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => this.deliver(n.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCOUNTS_CHANNEL}`);
      await this.watcher.resync();
      if (this.client !== client) return; // lost again meanwhile
      this.backoffMs = MIN_BACKOFF_MS;
      this.health.markUp();
    } catch {
      this.lost(client);
    }
  }

  private deliver(payload: string | undefined): void {
    const change = parseChange(payload);
    if (change === undefined) return;
    this.watcher.changed(change).catch(() => this.health.markDown());
  }

  private lost(client: pg.Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.health.markDown();
    void client.end().catch(() => {});
    if (this.closed) return;
    this.timer = setTimeout(() => void this.connect(), this.backoffMs);
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
  }
}
