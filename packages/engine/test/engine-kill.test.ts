/**
 * The fault: two engines of one venue as real child processes, on one ledger and one PostgreSQL
 * engines directory, each writing one market. One is SIGKILLed; the other's market keeps trading
 * (orders placed, matched and settled after the kill, by raw HTTPS clients), and the survivor's
 * `/instruments` still names the dead engine's market at its URL (a client gets a connection error
 * for that market only).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpsClient } from '@nightjar/testkit';
import { startEngineProcess, type EngineChild } from '@nightjar/testkit/process';
import { freePort, startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { crashLedger } from './settlement/crash-scenario.js';
import { clientVenue } from './settlement/engine-process.js';
import {
  accountsAt,
  crossAndSettle,
  ETH_MARKET,
  SOL_MARKET,
  sharedPki,
  type TestMarket,
} from './multi-engine.js';

const lab = crashLedger();

describe('one of two engines killed', () => {
  let pg: TestPostgres;
  const clients: HttpsClient[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await pg?.close();
  });

  const start = async (
    m: TestMarket,
    dataDir: string,
    pkiDir: string,
  ): Promise<{ child: EngineChild; client: HttpsClient }> => {
    const child = await startEngineProcess({
      NIGHTJAR_TEST_PKI_DIR: pkiDir,
      LEDGER_URL: lab.server.url,
      DATA_DIR: dataDir,
      NIGHTJAR_TEST_PORT: String(await freePort()),
      NIGHTJAR_TEST_MARKETS: m.symbol,
      NIGHTJAR_TEST_STORE: pg.url,
    });
    const client = new HttpsClient(child.url, child.cert);
    clients.push(client);
    return { child, client };
  };
  const listed = async (client: HttpsClient) =>
    Object.fromEntries(
      ((await client.send('/instruments')).body as { symbol: string; base_url: string }[]).map((i) => [
        i.symbol,
        i.base_url,
      ]),
    );

  it("keeps trading the survivor's market, and still lists the dead engine's at its URL", async () => {
    // Each data directory's key is registered in turn (the dev admin's transactions in order).
    const dirs = [await lab.dataDir(), await lab.dataDir()];
    // One simulated PKI for the venue: each engine checks the other's settlement key under it.
    const pki = await sharedPki(join(await lab.dataDir(), 'pki'));
    const [sol, eth] = await Promise.all([
      start(SOL_MARKET, dirs[0]!, pki),
      start(ETH_MARKET, dirs[1]!, pki),
    ]);
    const layout = { 'SOL-USDC': sol.child.url, 'ETH-USDC': eth.child.url };
    expect(await listed(eth.client)).toEqual(layout);
    expect(await listed(sol.client)).toEqual(layout);

    sol.child.proc.kill('SIGKILL');
    expect(await sol.child.exited).toBe('SIGKILL');
    await expect(sol.client.send('/time')).rejects.toThrow();

    const { venue } = await clientVenue(lab.ledger, eth.child, eth.client);
    const survivor = Object.assign(venue, { client: eth.client });
    // One accounts store: whichever engine booted first made the venue's one dev admin.
    const admin = (eth.child.admin ?? sol.child.admin)!;
    await crossAndSettle(survivor, accountsAt(eth.client, admin), ETH_MARKET, 60_000);
    expect(await listed(eth.client)).toEqual(layout);
  }, 120_000);
});
