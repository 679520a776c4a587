/**
 * Issue 16 item 20: a partially filled ioc ends `cancelled` with its `filled_quantity`, both when
 * its match confirms live and when a restart's reconciliation reports the confirmation (that
 * path used to build its own event, `fully_filled`). Live: the in-process venue. Restart: the
 * engine as a child process, SIGKILLed right after its settle transaction was sent, restarted on
 * the same data directory; the orders' events reach a stream session of the new boot.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDevGenesis, Ledger, loadOrCreateDevKeys, serveLedger } from '@nightjar/ledger';
import { login, SOL, startTestVenue, Trader, USDC, type Credentials, HttpsClient } from '@nightjar/testkit';
import { startEngineProcess } from '@nightjar/testkit/process';
import { StreamClient } from '../stream/stream-client.js';
import { clientVenue, preparedDataDir } from './engine-process.js';
import { steppedUntilKilled } from './crash-scenario.js';

const ONE_SOL = 1_000_000_000n;
const PRICE = 150_000_000n;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const orderEvents = (s: StreamClient, id: string) => s.events('orders').filter((f) => f.order_id === id);

describe('a partially filled ioc', () => {
  it('live: ends cancelled with its filled_quantity; the lookup agrees', async () => {
    const v = await startTestVenue({ settle: true });
    try {
      const [alice, bob] = [await v.newAccount(), await v.newAccount()];
      const stream = await StreamClient.login(v, alice.token);
      await stream.request({ op: 'subscribe', channels: ['orders'] });
      const [buyer, seller] = [v.trader(), v.trader()];
      const sol = await seller.deposit(SOL, 2n * ONE_SOL);
      const ask = seller.order(sol, { amount: ONE_SOL, price_limit: PRICE });
      expect((await v.client.send('/orders', { token: bob.token, body: ask })).status).toBe(202);
      const usdc = await buyer.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
      const ioc = buyer.order(usdc, { amount: 3n * ONE_SOL, order_type: 'ioc' });
      expect((await v.client.send('/orders', { token: alice.token, body: ioc })).status).toBe(202);
      const ended = () => orderEvents(stream, ioc.order_id).some((f) => f.kind !== 'pending_settlement');
      for (let i = 0; i < 600 && !ended(); i++) {
        await v.advance(1);
        await new Promise((r) => setTimeout(r, 15));
      }
      expect(orderEvents(stream, ioc.order_id).map((f) => f.kind)).toEqual([
        'pending_settlement',
        'cancelled',
      ]);
      expect(orderEvents(stream, ioc.order_id).at(-1)).toMatchObject({ filled_quantity: Number(ONE_SOL) });
      const look = await v.client.send(`/orders/${ioc.order_id}`, { token: alice.token });
      expect(look.body).toMatchObject({ status: 'cancelled', filled_quantity: Number(ONE_SOL) });
      await stream.close();
    } finally {
      await v.close();
    }
  }, 30_000);

  it('after a restart reconciles its confirmed match: the same cancelled event (was fully_filled)', async () => {
    const ledger = Ledger.open({
      clock: { mode: 'manual' },
      dev: true,
      verifier: { verify: async () => true },
    });
    const devKeys = loadOrCreateDevKeys(undefined);
    await ensureDevGenesis(ledger, devKeys);
    await ledger.advanceSlots({ slots: 40 });
    const server = await serveLedger(ledger, { port: 0 });
    try {
      const dataDir = await preparedDataDir(ledger, devKeys.adminSeed);
      dirs.push(dataDir);
      const env = { LEDGER_URL: server.url, DATA_DIR: dataDir };
      // Killed once its settle transaction is sent: the match lands while no engine runs.
      const first = await startEngineProcess({ ...env, NIGHTJAR_CRASH_AT: 'settling:sent' });
      const client = new HttpsClient(first.url, first.cert);
      const { venue } = await clientVenue(ledger, first, client);
      const adminToken = await login(client, first.admin!);
      const account = async (): Promise<Credentials> =>
        (await client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} })).body;
      const [aliceCreds, bobCreds] = [await account(), await account()];
      const [buyer, seller] = [new Trader(venue), new Trader(venue)];
      const sol = await seller.deposit(SOL, 2n * ONE_SOL);
      const usdc = await buyer.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
      const ask = seller.order(sol, { amount: ONE_SOL, price_limit: PRICE });
      const ioc = buyer.order(usdc, { amount: 3n * ONE_SOL, order_type: 'ioc' });
      const bobToken = await login(client, bobCreds);
      const aliceToken = await login(client, aliceCreds);
      expect((await client.send('/orders', { token: bobToken, body: ask })).status).toBe(202);
      expect((await client.send('/orders', { token: aliceToken, body: ioc })).status).toBe(202);
      await steppedUntilKilled(ledger, first);
      client.close();

      // The new boot: sessions subscribe before the chain moves (recovery waits for its fence to
      // confirm, which takes a slot), then the slots run until recovery is done.
      const second = await startEngineProcess(env);
      const client2 = new HttpsClient(second.url, second.cert);
      try {
        const { venue: venue2 } = await clientVenue(ledger, second, client2);
        const watch = async (creds: Credentials) => {
          const s = await StreamClient.login(venue2, await login(client2, creds));
          await s.request({ op: 'subscribe', channels: ['orders'] });
          return s;
        };
        const [aliceStream, bobStream] = [await watch(aliceCreds), await watch(bobCreds)];
        const done = () =>
          orderEvents(aliceStream, ioc.order_id).length > 0 &&
          orderEvents(bobStream, ask.order_id).length > 0;
        for (let i = 0; i < 300 && !done(); i++) {
          await ledger.advanceSlots({ slots: 1 });
          await new Promise((r) => setTimeout(r, 20));
        }
        const admin2 = await login(client2, first.admin!);
        const metrics = (await client2.send('/admin/metrics/settlement', { token: admin2 })).body;
        expect(metrics.counters.recovery_already_settled).toBe(1);
        expect(orderEvents(aliceStream, ioc.order_id)).toEqual([
          expect.objectContaining({ kind: 'cancelled', filled_quantity: Number(ONE_SOL), match_id: '1' }),
        ]);
        expect(orderEvents(bobStream, ask.order_id)).toEqual([
          expect.objectContaining({ kind: 'fully_filled', filled_quantity: Number(ONE_SOL), match_id: '1' }),
        ]);
        await aliceStream.close();
        await bobStream.close();
      } finally {
        second.proc.kill('SIGTERM');
        await second.exited;
        client2.close();
      }
    } finally {
      await server.close();
      await ledger.close();
    }
  }, 60_000);
});
