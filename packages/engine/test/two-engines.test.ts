/**
 * Two engines of one venue in this process, over real HTTPS, on one ledger and one PostgreSQL
 * engines directory: each writes one market and lists both (each at its engine's URL), refuses the
 * other's market naming where it is served, both settlement keys are in the finalized signer set
 * (both engines started at once, each checking the other's key by its attestation: neither keeps
 * the other's key out), and both settle a match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITMENT_LAG, type Ledger } from '@nightjar/ledger';
import { login, testEngineOptions, testVenueOf, type TestVenue } from '@nightjar/testkit';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { startEngine } from '@nightjar/engine';
import type { SettlementPipeline } from '../src/settlement/pipeline.js';
import {
  accountsAt,
  awaitSignerSet,
  crossAndSettle,
  devLedgerAndPki,
  scaleOutOptions,
  ETH_MARKET,
  SOL_MARKET,
  type TestMarket,
} from './multi-engine.js';

describe('two engines, one ledger, one engines directory', () => {
  let pg: TestPostgres;
  let ledger: Ledger;
  const venues: TestVenue[] = [];
  let pkiDir: string;

  const startOne = async (m: TestMarket, adminSeed: Uint8Array) =>
    startEngine({
      ...(await testEngineOptions(ledger, adminSeed)),
      ...(await scaleOutOptions(m, pg.url, pkiDir)),
      logger: false,
    });

  beforeAll(async () => {
    pg = await startPostgres();
    let adminSeed: Uint8Array;
    ({ ledger, adminSeed, pkiDir } = await devLedgerAndPki());
    const engines = await Promise.all([SOL_MARKET, ETH_MARKET].map((m) => startOne(m, adminSeed)));
    await awaitSignerSet(
      ledger,
      engines.map((e) => (e.context.settlement as SettlementPipeline).teeAddress),
    );
    // One accounts store: the engine that booted first made the venue's one dev admin.
    const admins = engines.flatMap((e) => (e.devAdmin ? [e.devAdmin] : []));
    expect(admins).toHaveLength(1);
    venues.push(...engines.map((e) => testVenueOf(ledger, e, async () => {}, admins[0])));
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    for (const v of venues) await v.engine.context.chain.poll();
  }, 60_000);
  afterAll(async () => {
    for (const v of venues) await v.close();
    await ledger?.close();
    await pg?.close();
  });

  it('lists both markets at each engine, each at the URL of the engine that writes it', async () => {
    const [sol, eth] = venues as [TestVenue, TestVenue];
    for (const v of venues) {
      const r = await v.client.send('/instruments');
      expect(r.status).toBe(200);
      const urls = Object.fromEntries(
        (r.body as { symbol: string; base_url: string }[]).map((i) => [i.symbol, i.base_url]),
      );
      expect(urls).toEqual({ 'SOL-USDC': sol.engine.url, 'ETH-USDC': eth.engine.url });
    }
  });

  it("refuses an order for the other engine's market with 1301, naming where it is served", async () => {
    const [sol, eth] = venues as [TestVenue, TestVenue];
    const { token } = await sol.newAccount();
    const trader = sol.trader();
    const note = await trader.deposit(ETH_MARKET.base, ETH_MARKET.amount);
    const body = trader.order(note, { symbol: 'ETH-USDC', side: 'ask', amount: ETH_MARKET.amount });
    const r = await sol.client.send('/orders', { token, body });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(1301);
    expect(r.body.message).toContain(`ETH-USDC is served by the engine at ${eth.engine.url}`);
    // A symbol no engine serves is still the plain 1301.
    const unknown = await sol.client.send('/orders', { token, body: { ...body, symbol: 'DOGE-USDC' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).not.toContain('served by');
  });

  it('has both settlement keys in the finalized signer set, and /info shows that set at both', async () => {
    const keys = venues.map((v) => (v.engine.context.settlement as SettlementPipeline).teeAddress);
    const vault = await ledger.getVault({ commitment: 'finalized' });
    expect([...vault.tee_keys].sort()).toEqual([...keys].sort());
    const infos = await Promise.all(venues.map((v) => v.client.send('/info')));
    expect(infos[0]!.body.signer_set_sha256).toBe(infos[1]!.body.signer_set_sha256);
    for (const v of venues) expect(v.engine.context.settlement.state).toBe('wired');
  });

  it('settles a match at each engine', async () => {
    const [sol, eth] = venues as [TestVenue, TestVenue];
    await crossAndSettle(sol, accountsAt(sol.client, sol.admin), SOL_MARKET);
    await crossAndSettle(eth, accountsAt(eth.client, eth.admin), ETH_MARKET);
  }, 60_000);

  it('shares the accounts: an account made at one engine logs in at the other', async () => {
    const [sol, eth] = venues as [TestVenue, TestVenue];
    for (const v of venues) expect(await login(v.client, v.admin)).toMatch(/./);
    const made = await sol.newAccount();
    expect(await login(eth.client, made.credentials)).toMatch(/./);
  });
});
