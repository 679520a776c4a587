/**
 * The PostgreSQL engines directory against a real server: each engine's row, the markets of the
 * others (a dead engine's still listed), one engine per symbol (a live holder refuses a second, a
 * long-stale one gives its markets up), a lost data directory's key retired, and the signer set as
 * the union of the engines' admitted keys even when two engines join at once (a row whose engine
 * did not attest its key is left out).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { migrate } from '../src/pg/migrate.js';
import { PgEngineDirectory, type EngineDirectoryOptions } from '../src/pg/engine-directory-pg.js';
import { openPgPool, type PgPool } from '../src/pg/pool.js';

const URL_A = 'https://a.example:8443';
const URL_B = 'https://b.example:8443';
const URL_C = 'https://c.example:8443';

describe('PostgreSQL engines directory', () => {
  let server: TestPostgres;
  let pool: PgPool;
  const opened: PgEngineDirectory[] = [];
  /** The signer set the ledger holds: the last one registered. */
  let ledgerSet: readonly string[] = [];
  const register = async (keys: readonly string[]) => {
    await new Promise((r) => setImmediate(r)); // the ledger round trip: another join may run meanwhile
    ledgerSet = keys;
  };
  const engine = (baseUrl: string, symbols: string[], more: Partial<EngineDirectoryOptions> = {}) => {
    const d = new PgEngineDirectory(pool, {
      baseUrl,
      symbols,
      bootSession: 'boot',
      cacheMs: 0,
      admitPeers: async (peers) => peers.map((p) => p.teeKey),
      ...more,
    });
    opened.push(d);
    return d;
  };
  const age = (baseUrl: string, seconds: number) =>
    pool.query(`UPDATE engines SET heartbeat_at = now() - $2 * interval '1 second' WHERE base_url = $1`, [
      baseUrl,
      seconds,
    ]);

  beforeAll(async () => {
    server = await startPostgres();
    pool = openPgPool(server.url);
    await migrate(pool);
  });
  beforeEach(async () => {
    await pool.query('DELETE FROM engines');
    ledgerSet = [];
  });
  afterEach(async () => {
    // A directory left beating would register into the next test's ledger.
    for (const d of opened.splice(0)) await d.close();
  });
  afterAll(async () => {
    await pool?.end();
    await server?.close();
  });

  it("lists each engine's markets at the others, a dead engine's too", async () => {
    const a = engine(URL_A, ['SOL-USDC']);
    const b = engine(URL_B, ['ETH-USDC']);
    await a.join('key-a', register);
    await b.join('key-b', register);
    expect(await a.peers()).toEqual([{ symbol: 'ETH-USDC', base_url: URL_B }]);
    expect(await b.peers()).toEqual([{ symbol: 'SOL-USDC', base_url: URL_A }]);
    await age(URL_B, 3600);
    expect(await a.peers()).toEqual([{ symbol: 'ETH-USDC', base_url: URL_B }]);
    expect([...ledgerSet].sort()).toEqual(['key-a', 'key-b']);
  });

  it('refuses a second engine for a symbol a live engine writes, naming it', async () => {
    await engine(URL_A, ['SOL-USDC']).join('key-a', register);
    const c = engine(URL_C, ['SOL-USDC', 'ETH-USDC']);
    await expect(c.checkSymbols()).rejects.toThrow(
      /SOL-USDC is already served by engine key-a at https:\/\/a/,
    );
    await expect(c.join('key-c', register)).rejects.toThrow(/already served/);
    expect(ledgerSet).toEqual(['key-a']);
  });

  it('takes the markets of an engine whose heartbeat is long stale, retiring its key', async () => {
    await engine(URL_A, ['SOL-USDC']).join('key-a', register);
    await engine(URL_B, ['ETH-USDC']).join('key-b', register);
    await age(URL_A, 120);
    const c = engine(URL_C, ['SOL-USDC']);
    await c.checkSymbols();
    await c.join('key-c', register);
    expect([...ledgerSet].sort()).toEqual(['key-b', 'key-c']);
    expect(await c.peers()).toEqual([{ symbol: 'ETH-USDC', base_url: URL_B }]);
  });

  it('retires the key of an engine that comes back at its URL with a new one (a lost data dir)', async () => {
    await engine(URL_A, ['SOL-USDC']).join('key-a', register);
    await engine(URL_B, ['ETH-USDC']).join('key-b', register);
    await engine(URL_B, ['ETH-USDC']).join('key-b2', register);
    expect([...ledgerSet].sort()).toEqual(['key-a', 'key-b2']);
  });

  it("registers both keys when two engines join at once (neither drops the other's)", async () => {
    for (let round = 0; round < 5; round++) {
      await pool.query('DELETE FROM engines');
      const a = engine(URL_A, ['SOL-USDC']);
      const b = engine(URL_B, ['ETH-USDC']);
      await Promise.all([a.join('key-a', register), b.join('key-b', register)]);
      expect([...ledgerSet].sort()).toEqual(['key-a', 'key-b']);
    }
  });

  it("registers a later engine's key at its next heartbeat (the engine holding the ledger's admin)", async () => {
    await engine(URL_A, ['SOL-USDC'], { heartbeatMs: 20 }).join('key-a', register);
    // The second engine has no admin of the ledger: its own registration changes nothing.
    await engine(URL_B, ['ETH-USDC']).join('key-b', async () => {});
    expect(ledgerSet).toEqual(['key-a']);
    for (let i = 0; i < 200 && ledgerSet.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect([...ledgerSet].sort()).toEqual(['key-a', 'key-b']);
  });

  it("leaves out a row's key its engine did not attest, and takes it in once it does", async () => {
    const attested = new Set(['key-b']);
    const seen: { teeKey: string; baseUrl: string }[][] = [];
    const admitPeers = async (peers: readonly { teeKey: string; baseUrl: string }[]) => {
      seen.push([...peers]);
      return peers.filter((p) => attested.has(p.teeKey)).map((p) => p.teeKey);
    };
    await pool.query(
      `INSERT INTO engines (engine_id, base_url, symbols, tee_key, boot_session)
       VALUES ('key-x', $1, ARRAY['ETH-USDC'], 'key-x', 'forged')`,
      [URL_C],
    );
    const a = engine(URL_A, ['SOL-USDC'], { heartbeatMs: 20, admitPeers });
    await a.join('key-a', register);
    // The check is asked about the peer row, never about this engine's own key.
    expect(seen[0]).toEqual([{ teeKey: 'key-x', baseUrl: URL_C }]);
    expect(ledgerSet).toEqual(['key-a']);
    // Its market stays listed: clients verify engines themselves.
    expect(await a.peers()).toEqual([{ symbol: 'ETH-USDC', base_url: URL_C }]);
    attested.add('key-x');
    for (let i = 0; i < 200 && ledgerSet.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect([...ledgerSet].sort()).toEqual(['key-a', 'key-x']);
  });

  it('beats its heartbeat', async () => {
    const a = engine(URL_A, ['SOL-USDC'], { heartbeatMs: 20 });
    await a.join('key-a', register);
    await age(URL_A, 3600);
    const fresh = async () =>
      (await pool.query(`SELECT heartbeat_at > now() - interval '1 minute' AS f FROM engines`)).rows[0].f;
    for (let i = 0; i < 200 && !(await fresh()); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await fresh()).toBe(true);
  });
});
