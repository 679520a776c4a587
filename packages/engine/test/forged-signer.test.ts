/**
 * The attack (issue 33, security): whoever can write the PostgreSQL `engines` table (an operator,
 * a leaked password) inserts a row naming a key of their own. Before the fix every engine holding
 * the ledger's admin registered the union of the rows' keys, so that key became a settlement
 * signer. Now an engine registers a peer's key only after the peer, at its base URL, quoted that
 * key under the pinned root and this release. Rows tried here: a key whose "engine" does not
 * answer; a genuine engine's URL with the attacker's key (it attests its own key, not theirs);
 * a server on the venue's pinned root running another release; a server running this release
 * under a root of its own. None is ever registered, while the genuine second engine's key is.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressToBase58, ed25519PublicKey, stringifyJson } from '@nightjar/protocol';
import { COMMITMENT_LAG, type Ledger } from '@nightjar/ledger';
import { testEngineOptions, type TestVenue, testVenueOf } from '@nightjar/testkit';
import { freePort, startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { AttestationService, computeComposeHash, SimulatedPlatform, startEngine } from '@nightjar/engine';
import { openPgPool, type PgPool } from '../src/pg/pool.js';
import type { SettlementPipeline } from '../src/settlement/pipeline.js';
import {
  awaitSignerSet,
  devLedgerAndPki,
  ETH_MARKET,
  scaleOutOptions,
  SOL_MARKET,
  type TestMarket,
} from './multi-engine.js';

const attackerKey = (n: number) => addressToBase58(ed25519PublicKey(new Uint8Array(32).fill(n)));

/** A server answering the settlement-key route for `teeKey` with `platform`'s quotes. */
async function fakeEngine(
  platform: SimulatedPlatform,
  teeKey: string,
): Promise<{ url: string; server: Server }> {
  const service = new AttestationService({
    platform,
    bootSessionId: '00'.repeat(32),
    tlsSpkiSha256: '00'.repeat(32),
    signerSetSha256: () => '00'.repeat(32),
  });
  const server = createServer((req, res) => {
    const nonce = new URL(req.url ?? '/', 'http://x').searchParams.get('nonce') ?? '';
    void service.settlementKeyAttestation(Buffer.from(nonce, 'hex'), teeKey).then(
      (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(body)),
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}

describe('a key written straight into the engines table', () => {
  let pg: TestPostgres;
  let db: PgPool;
  let ledger: Ledger;
  const venues: TestVenue[] = [];
  const servers: Server[] = [];
  let pkiDir: string;
  /** Every signer set any engine asked the ledger's admin for. */
  const registered: string[][] = [];
  /** Engine A's warnings (one per refused key). */
  const warnings: string[] = [];

  const startOne = async (m: TestMarket, adminSeed: Uint8Array, log?: string[]) => {
    const options = await testEngineOptions(ledger, adminSeed);
    return startEngine({
      ...options,
      ...(await scaleOutOptions(m, pg.url, pkiDir)),
      registerTeeKeys: async (keys) => {
        registered.push([...keys]);
        await options.registerTeeKeys!(keys);
      },
      logger: log ? { level: 'warn', stream: { write: (line: string) => void log.push(line) } } : false,
    });
  };
  const insertRow = (key: string, baseUrl: string, symbol: string) =>
    db.query(
      `INSERT INTO engines (engine_id, base_url, symbols, tee_key, boot_session)
       VALUES ($1, $2, ARRAY[$3], $1, 'forged')`,
      [key, baseUrl, symbol],
    );

  beforeAll(async () => {
    pg = await startPostgres();
    db = openPgPool(pg.url);
    let adminSeed: Uint8Array;
    ({ ledger, adminSeed, pkiDir } = await devLedgerAndPki());
    const engines = await Promise.all([
      startOne(SOL_MARKET, adminSeed, warnings),
      startOne(ETH_MARKET, adminSeed),
    ]);
    venues.push(...engines.map((e) => testVenueOf(ledger, e, async () => {}, e.devAdmin)));
  }, 60_000);
  afterAll(async () => {
    for (const v of venues) await v.close();
    for (const s of servers) s.close();
    await db?.end();
    await ledger?.close();
    await pg?.close();
  });

  it("never registers the attacker's keys, and registers the genuine second engine's", async () => {
    const [sol, eth] = venues as [TestVenue, TestVenue];
    const otherRelease = await fakeEngine(
      await SimulatedPlatform.open({ dir: undefined, composeHash: 'ee'.repeat(32), pkiDir }),
      attackerKey(3),
    );
    const ownRoot = await fakeEngine(
      await SimulatedPlatform.open({ dir: undefined, composeHash: computeComposeHash() }),
      attackerKey(4),
    );
    servers.push(otherRelease.server, ownRoot.server);
    const forged = [
      {
        key: attackerKey(1),
        url: `https://127.0.0.1:${await freePort()}`,
        symbol: 'BTC-USDC',
        why: /ECONNREFUSED/,
      },
      { key: attackerKey(2), url: `${eth.engine.url}/`, symbol: 'DOGE-USDC', why: /another settlement key/ },
      { key: attackerKey(3), url: otherRelease.url, symbol: 'XRP-USDC', why: /compose/i },
      { key: attackerKey(4), url: ownRoot.url, symbol: 'ADA-USDC', why: /root|chain/i },
    ];
    for (const f of forged) await insertRow(f.key, f.url, f.symbol);

    // Each forged row is checked (at a heartbeat) and refused, saying why.
    const refusal = (key: string) =>
      warnings
        .map((line) => JSON.parse(line) as { tee_key?: string; reason?: string })
        .find((w) => w.tee_key === key);
    for (const deadline = Date.now() + 20_000; forged.some((f) => !refusal(f.key));) {
      if (Date.now() > deadline) throw new Error(`not every forged row was refused: ${warnings.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const f of forged) expect(refusal(f.key)!.reason).toMatch(f.why);

    const genuine = venues.map((v) => (v.engine.context.settlement as SettlementPipeline).teeAddress).sort();
    await awaitSignerSet(ledger, genuine);
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    expect([...(await ledger.getVault({ commitment: 'finalized' })).tee_keys].sort()).toEqual(genuine);
    const attackers = new Set(forged.map((f) => f.key));
    expect(registered.length).toBeGreaterThan(0);
    expect(registered.flat().filter((k) => attackers.has(k))).toEqual([]);
    // The forged rows stay in the table (nothing deleted them): they were read and refused.
    expect((await db.query('SELECT count(*)::int AS n FROM engines')).rows[0].n).toBe(6);
    expect(sol.engine.url).not.toBe(eth.engine.url);
  }, 60_000);
});
