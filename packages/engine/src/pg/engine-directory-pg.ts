/**
 * The engines directory in PostgreSQL (migration 3, DESIGN 11): how the engines of one venue find
 * each other's markets, and agree on the ledger's signer set.
 *
 * - Each engine upserts its row at boot (engine id: its settlement key's address, stable per data
 *   directory; its base URL; the symbols it writes; its key; its boot session) and beats a
 *   heartbeat every few seconds.
 * - `peers()` lists the other rows' markets (cached briefly). A row whose heartbeat is stale is
 *   still listed: clients learn where a dead engine's market lives and get a connection error for
 *   that market only.
 * - A symbol belongs to one engine. A second engine naming it refuses to start, unless the holder's
 *   heartbeat is older than `takeoverAfterMs` (default 60 s): then the symbol moves to the newcomer,
 *   and a row left with no symbol is deleted (its key leaves the signer set).
 * - An engine that comes back at its base URL with another key (its data directory was lost)
 *   replaces its old row: the retired key leaves the signer set.
 * - The signer set is this engine's key and the keys of the rows whose engines proved, to this
 *   engine, that they hold them (`admitPeers`: anyone who can write this table could name a key of
 *   their own), registered under an advisory lock. A row left out keeps its market listed.
 */
import { inTransaction, type PgClient, type PgPool } from './pool.js';
import type { ListedMarket, MarketDirectory } from '../market-directory.js';

/** The advisory lock key of the engines directory ("nj-engns" in ASCII). */
const ENGINES_LOCK = 0x6e6a2d656e676e73n;

export interface EngineDirectoryOptions {
  /** This engine's base URL (its instruments' `base_url`). */
  baseUrl: string;
  /** The symbols this engine writes. */
  symbols: readonly string[];
  bootSession: string;
  heartbeatMs?: number;
  /** How stale a holder's heartbeat must be before another engine may take its markets. */
  takeoverAfterMs?: number;
  /** How long `peers()` answers from its last read. */
  cacheMs?: number;
  /**
   * The keys among other rows' that may sign: those whose engine at its base URL attested them
   * (`attestation/peer-signers.ts`). A row's key never enters the signer set on the table's word.
   */
  admitPeers: (peers: readonly { teeKey: string; baseUrl: string }[]) => Promise<readonly string[]>;
}

interface EngineRow {
  engine_id: string;
  base_url: string;
  symbols: string[];
  age_ms: number;
}

export class PgEngineDirectory implements MarketDirectory {
  private engineId: string | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private cached: { at: number; peers: ListedMarket[] } | undefined;
  /** The signer-set registration of `join`, and the key set it last ran with. */
  private signerSet: { register: (keys: readonly string[]) => Promise<void>; keys: string } | undefined;

  constructor(
    private readonly pool: PgPool,
    private readonly o: EngineDirectoryOptions,
  ) {}

  async peers(): Promise<readonly ListedMarket[]> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < (this.o.cacheMs ?? 1_000)) return this.cached.peers;
    try {
      const { rows } = await this.pool.query<{ base_url: string; symbols: string[] }>(
        'SELECT base_url, symbols FROM engines WHERE base_url <> $1 ORDER BY started_at',
        [this.o.baseUrl],
      );
      const peers = rows.flatMap((r) => r.symbols.map((symbol) => ({ symbol, base_url: r.base_url })));
      this.cached = { at: now, peers };
      return peers;
    } catch (err) {
      // The server is away: the last known layout is still the best answer.
      if (this.cached) return this.cached.peers;
      throw err;
    }
  }

  /**
   * Joins the venue with settlement key `teeKey` (the engine id) and, still under the lock, runs
   * `register` with every engine's key: the signer set the venue wants.
   */
  async join(teeKey: string, register: (keys: readonly string[]) => Promise<void>): Promise<void> {
    await inTransaction(this.pool, async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [ENGINES_LOCK.toString()]);
      await this.claimSymbols(c, teeKey);
      await c.query('DELETE FROM engines WHERE base_url = $1 AND engine_id <> $2', [this.o.baseUrl, teeKey]);
      await c.query(
        `INSERT INTO engines (engine_id, base_url, symbols, tee_key, boot_session)
         VALUES ($1, $2, $3, $1, $4)
         ON CONFLICT (engine_id) DO UPDATE SET base_url = $2, symbols = $3, boot_session = $4,
           started_at = now(), heartbeat_at = now()`,
        [teeKey, this.o.baseUrl, [...this.o.symbols], this.o.bootSession],
      );
      await this.registerKeys(c, teeKey, register);
    });
    this.engineId = teeKey;
    this.cached = undefined;
    this.heartbeat = setInterval(() => void this.beat(), this.o.heartbeatMs ?? 5_000);
    this.heartbeat.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
  }

  /**
   * Refuses to start when another live engine writes one of this engine's symbols (checked again
   * under the lock at `join`): before anything else of the engine starts.
   */
  async checkSymbols(): Promise<void> {
    await this.holders(this.pool, '');
  }

  /** Takes this engine's symbols from engines whose heartbeat is long stale (`holders` refuses live ones). */
  private async claimSymbols(c: PgClient, teeKey: string): Promise<void> {
    for (const { engineId, shared } of await this.holders(c, teeKey))
      await c.query(
        'UPDATE engines SET symbols = array(SELECT unnest(symbols) EXCEPT SELECT unnest($2::text[])) WHERE engine_id = $1',
        [engineId, shared],
      );
    await c.query('DELETE FROM engines WHERE cardinality(symbols) = 0');
  }

  /** Other engines writing this engine's symbols, all long stale (a live one is an error). */
  private async holders(
    q: PgPool | PgClient,
    teeKey: string,
  ): Promise<{ engineId: string; shared: string[] }[]> {
    const takeoverMs = this.o.takeoverAfterMs ?? 60_000;
    const { rows } = await q.query<EngineRow>(
      `SELECT engine_id, base_url, symbols,
         (extract(epoch FROM now() - heartbeat_at) * 1000)::float8 AS age_ms
       FROM engines WHERE engine_id <> $1 AND base_url <> $2 AND symbols && $3`,
      [teeKey, this.o.baseUrl, [...this.o.symbols]],
    );
    return rows.map((r) => {
      const shared = r.symbols.filter((s) => this.o.symbols.includes(s));
      if (r.age_ms < takeoverMs)
        throw new Error(
          `${shared.join(', ')} is already served by engine ${r.engine_id} at ${r.base_url} ` +
            `(its heartbeat is ${Math.round(r.age_ms / 1000)} s old; a market moves to another ` +
            `engine only once its engine's heartbeat is ${Math.round(takeoverMs / 1000)} s stale)`,
        );
      return { engineId: r.engine_id, shared };
    });
  }

  /** Runs `register` with `own` and every admitted peer's key, once per change of that set. */
  private async registerKeys(
    c: PgClient,
    own: string,
    register: (keys: readonly string[]) => Promise<void>,
  ): Promise<void> {
    const { rows } = await c.query<{ tee_key: string; base_url: string }>(
      'SELECT tee_key, base_url FROM engines ORDER BY engine_id',
    );
    const peers = rows
      .filter((r) => r.tee_key !== own)
      .map((r) => ({ teeKey: r.tee_key, baseUrl: r.base_url }));
    const admitted = new Set(await this.o.admitPeers(peers));
    const keys = rows.map((r) => r.tee_key).filter((key) => key === own || admitted.has(key));
    if (this.signerSet?.keys === keys.join()) return;
    await register(keys);
    this.signerSet = { register, keys: keys.join() };
  }

  private async beat(): Promise<void> {
    // An outage skips beats; the row stays listed, and the next beat after it lands.
    await this.pool
      .query('UPDATE engines SET heartbeat_at = now() WHERE engine_id = $1', [this.engineId])
      .catch(() => {});
    // An engine joined or left since: the signer set follows (an engine that holds the ledger's
    // admin registers a later engine's key; one that does not only logs).
    const { signerSet, engineId } = this;
    if (signerSet && engineId !== undefined)
      await inTransaction(this.pool, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [ENGINES_LOCK.toString()]);
        await this.registerKeys(c, engineId, signerSet.register);
      }).catch(() => {});
  }
}
