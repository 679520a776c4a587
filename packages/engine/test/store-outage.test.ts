/**
 * The engine on a real PostgreSQL account store (`store: postgres://…`): in process over HTTPS it
 * takes an order; then as a real child process while the server is stopped for 10 s (by this
 * test's clock): placements answer 503 5001, an order accepted before is still there afterwards,
 * and once the server is back a placement succeeds again within a bounded wait, no restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpsClient, login, startTestVenue, Trader, USDC } from '@nightjar/testkit';
import { startEngineProcess } from '@nightjar/testkit/process';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { crashLedger, ONE_SOL, PRICE } from './settlement/crash-scenario.js';
import { clientVenue } from './settlement/engine-process.js';
import { openPgPool } from '../src/pg/pool.js';

const OUTAGE_MS = 10_000;
const RECOVERY_BOUND_MS = 20_000;

async function emptyDatabase(url: string): Promise<void> {
  const pool = openPgPool(url);
  await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  await pool.end();
}

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.close();
});

const lab = crashLedger();

describe('the engine on a PostgreSQL account store', () => {
  it('serves over HTTPS with store: url and takes an order', async () => {
    const venue = await startTestVenue({ store: server.url });
    try {
      const { token } = await venue.newAccount();
      const trader = venue.trader();
      const note = await trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
      const placed = await venue.client.send('/orders', { token, body: trader.order(note) });
      expect(placed.status).toBe(202);
      const pool = openPgPool(server.url);
      const stored = await pool.query('SELECT is_admin FROM accounts ORDER BY is_admin');
      // The order and login buckets are the shared ones too.
      const buckets = await pool.query('SELECT DISTINCT bucket FROM rate_buckets ORDER BY bucket');
      await pool.end();
      expect(stored.rows).toEqual([{ is_admin: false }, { is_admin: true }]); // the trader, the dev admin
      expect(buckets.rows).toEqual([{ bucket: 'login' }, { bucket: 'order' }]);
    } finally {
      await venue.close();
    }
  });

  it('answers 503 5001 while PostgreSQL is down, loses nothing, and recovers by itself', async () => {
    const { ledger, server: ledgerServer } = lab;
    await emptyDatabase(server.url); // a fresh venue: the child makes its own dev admin
    const child = await startEngineProcess({
      LEDGER_URL: ledgerServer.url,
      DATA_DIR: await lab.dataDir(),
      NIGHTJAR_TEST_STORE: server.url,
    });
    const client = new HttpsClient(child.url, child.cert);
    try {
      const { venue } = await clientVenue(ledger, child, client);
      const adminToken = await login(client, child.admin!);
      const created = await client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
      const token = await login(client, created.body);
      const trader = new Trader(venue);
      const bid = Trader.required('bid', ONE_SOL, PRICE);
      const notes = [await trader.depositNow(USDC, bid), await trader.depositNow(USDC, bid)];
      await venue.advance(40);
      await venue.engine.context.trees.checkAgainstChain();
      const before = trader.order(notes[0]!);
      expect((await client.send('/orders', { token, body: before })).status).toBe(202);

      await server.stop();
      const stoppedAt = performance.now();
      const during = trader.order(notes[1]!);
      let refused = 0;
      while (performance.now() - stoppedAt < OUTAGE_MS) {
        const r = await client.send('/orders', { token, body: during });
        expect([r.status, r.body.code]).toEqual([503, 5001]);
        expect(r.body.message).toBe('account store unavailable; new trading paused');
        refused++;
        await new Promise((resolve) => setTimeout(resolve, 250)); // the pace of a client retrying
      }
      expect(refused).toBeGreaterThan(5);
      expect(child.proc.exitCode).toBeNull(); // no crash on any pg error
      await server.start();
      const restartedAt = performance.now();

      let status = 0;
      while (status !== 202 && performance.now() - restartedAt < RECOVERY_BOUND_MS) {
        const r = await client.send('/orders', { token, body: during });
        status = r.status;
        if (status !== 202) expect([r.status, r.body.code]).toEqual([503, 5001]);
        else break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(202);
      const kept = await client.send(`/orders/${before.order_id}`, { token });
      expect(kept.status).toBe(200);
      expect(kept.body.order_id).toBe(before.order_id);
      expect((await client.send(`/orders/${during.order_id}`, { token })).status).toBe(200);
    } finally {
      client.close();
      child.proc.kill('SIGKILL');
      await child.exited;
    }
  });
});
