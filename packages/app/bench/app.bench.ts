/**
 * Trading app benchmark (issue 20; results in docs/benchmarks/app.md):
 *  1. from `nightjar start` (venue and app, each in its own process) to a page in headless Chromium
 *     that shows the attestation verified and the balances table: spawn → ready.json with
 *     `app_url`, then the page load; the browser is started before the clock (a user's browser is
 *     already open);
 *  2. from clicking Place to the order resting in the page's table, against the proving time the
 *     app reports on its progress frames (`proving` → `sending`): the app's own cost is the rest;
 *     beside it, the same order through the local JSON API (a bot's path) and through the SDK in
 *     this process (the strongest alternative: no app at all);
 *  3. the page's script and style sizes, as served (minified and gzip).
 *
 *   npm run bench -w packages/app            (ROUNDS=3 starts, ORDERS=5 orders per path)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';

import WebSocket from 'ws';
import {
  createAccount,
  createClient,
  createWallet,
  deposit,
  cancelOrder,
  placeOrder,
  requestFaucet,
  type Client,
} from '@nightjar/sdk';

import { launchBrowser, openPage, VIEWPORTS } from '../test/browser/launch.js';
import { appApi, fmt, median, startVenue, stopVenue, type Venue } from './start-venue.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ORDERS = Number(process.env.ORDERS ?? 5);

const chrome = await launchBrowser();
const out: string[] = [];
const log = (line: string) => {
  out.push(line);
  console.log(line);
};

try {
  /* ---------- 1. start → verified page ---------- */
  const toReady: number[] = [];
  const toPage: number[] = [];
  const total: number[] = [];
  let venue: Venue | undefined;
  for (let i = 0; i < ROUNDS; i++) {
    if (venue) await stopVenue(venue);
    venue = await startVenue();
    const { page, context } = await openPage(chrome.browser, VIEWPORTS.desktop);
    await page.goto(venue.ready.app_url);
    await page.getByTestId('attestation-status').filter({ hasText: 'Verified' }).waitFor({ timeout: 60_000 });
    await page
      .locator('section', { hasText: 'Balances' })
      .locator('td', { hasText: 'USDC' })
      .first()
      .waitFor();
    const shownAt = performance.now();
    toReady.push(venue.readyAt - venue.spawnedAt);
    toPage.push(shownAt - venue.readyAt);
    total.push(shownAt - venue.spawnedAt);
    if (i < ROUNDS - 1) await context.close();
  }
  log('## 1. From `nightjar start` to a page showing verified attestation and balances (ms)');
  log(`spawn → ready.json with app_url: ${fmt(toReady)}`);
  log(`ready → page verified + balances: ${fmt(toPage)}`);
  log(`total: ${fmt(total)}`);

  /* ---------- 2. Place → resting ---------- */
  const v = venue!;
  const { origin, token: apiToken, call: api } = appApi(v);
  // The app's progress frames give its proving time per order (keyed by client_ref).
  const stages = new Map<string, Map<string, number>>();
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/api/v1/events`, {
    headers: { authorization: `Bearer ${apiToken}` },
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string; client_ref?: string; stage?: string };
    if (frame.type !== 'progress' || !frame.client_ref || !frame.stage) return;
    const m = stages.get(frame.client_ref) ?? new Map<string, number>();
    if (!m.has(frame.stage)) m.set(frame.stage, performance.now());
    stages.set(frame.client_ref, m);
  });
  const provingMs = (ref: string): number => {
    const m = stages.get(ref);
    const start = m?.get('proving');
    const end = m?.get('sending') ?? m?.get('accepted');
    return start !== undefined && end !== undefined ? end - start : NaN;
  };

  // One note per order (page and API paths), so no order waits for a split to become final.
  await api('POST', 'faucet', { asset: 'USDC', amount: '400' });
  await Promise.all(
    Array.from({ length: 2 * ORDERS }, () => api('POST', 'deposits', { asset: 'USDC', amount: '10' })),
  );

  const page = chrome.browser.contexts().at(-1)!.pages()[0]!;
  const uiTotal: number[] = [];
  const uiProve: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const ids = new Set(
      await Promise.all(
        (await page.locator('[data-testid^="state-"]').all()).map((l) => l.getAttribute('data-testid')),
      ),
    );
    await page.getByLabel('Buy', { exact: true }).check();
    await page.getByLabel('Amount (SOL)', { exact: true }).fill('0.1');
    await page.getByLabel('Price (USDC per SOL)').fill(String(50 + i));
    await page.getByLabel(/Expires in/).fill('5m');
    await page.getByTestId('amount-units').waitFor();
    const before = new Set(stages.keys());
    const clicked = performance.now();
    await page.getByRole('button', { name: 'Place bid' }).click();
    // Resting: a new row in the orders table whose state reads "Open".
    const row = page.locator('[data-testid^="state-"]').filter({ hasText: /^Open$/ });
    let resting = NaN;
    for (;;) {
      const now = await row.all();
      const fresh = await Promise.all(now.map((l) => l.getAttribute('data-testid')));
      if (fresh.some((id) => id && !ids.has(id))) {
        resting = performance.now();
        break;
      }
      await delay(5);
    }
    const ref = [...stages.keys()].find((k) => !before.has(k));
    uiTotal.push(resting - clicked);
    uiProve.push(ref ? provingMs(ref) : NaN);
  }

  const apiTotal: number[] = [];
  const apiProve: number[] = [];
  const apiStages = new Map<string, number[]>();
  for (let i = 0; i < ORDERS; i++) {
    const ref = `bench-api-${i}`;
    const t0 = performance.now();
    const order = await api('POST', 'orders', {
      symbol: 'SOL-USDC',
      side: 'bid',
      type: 'limit',
      amount: '0.1',
      price: String(40 + i),
      expiry_seconds: 300,
      client_ref: ref,
    });
    apiTotal.push(performance.now() - t0);
    apiProve.push(provingMs(ref));
    for (const [stage, at] of stages.get(ref) ?? [])
      apiStages.set(stage, [...(apiStages.get(stage) ?? []), at - t0]);
    await api('DELETE', `orders/${String(order.order_id)}`);
  }
  ws.close();

  // The SDK in this process, on its own account: the path without the app.
  const r = v.ready;
  const conn = {
    baseUrl: r.base_url,
    pinnedRoot: readFileSync(r.platform_root),
    composeHash: r.compose_hash,
    ledgerUrl: r.ledger_url,
    ...(r.ledger_dev_secret ? { ledgerDevSecret: r.ledger_dev_secret } : {}),
  };
  const admin = await createClient({ ...conn, credentials: r.admin });
  const account = await createAccount(admin, { label: 'bench-sdk' });
  await admin.close();
  const sdk: Client = await createClient({
    ...conn,
    credentials: account,
    wallet: createWallet({
      path: join(v.dir, 'bench.wallet'),
      password: 'bench',
      scrypt: { N: 2 ** 10, r: 8, p: 1 },
    }),
    stateDir: join(v.dir, 'bench-state'),
  });
  await requestFaucet(sdk, { asset: 'USDC', amount: '400' });
  for (let i = 0; i < ORDERS; i++)
    await deposit(sdk, { asset: 'USDC', amount: '10', wait: i === ORDERS - 1 ? 'usable' : 'landed' });
  const sdkTotal: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const t0 = performance.now();
    const placed = await placeOrder(sdk, {
      symbol: 'SOL-USDC',
      side: 'bid',
      amount: '0.1',
      price: String(30 + i),
      expiry: { seconds: 300 },
    });
    sdkTotal.push(performance.now() - t0);
    await cancelOrder(sdk, { orderId: placed.orderId });
  }
  await sdk.close();

  const overhead = (tot: number[], prove: number[]) => tot.map((t, i) => t - (prove[i] ?? NaN));
  log('');
  log(`## 2. Place → resting (ms; median (each), ${ORDERS} orders a path, one run)`);
  log(
    `page: click → row "open": ${fmt(uiTotal)}; proving: ${fmt(uiProve)}; the rest: ${fmt(overhead(uiTotal, uiProve))}`,
  );
  log(
    `local API: POST orders → 201: ${fmt(apiTotal)}; proving: ${fmt(apiProve)}; the rest: ${fmt(overhead(apiTotal, apiProve))}`,
  );
  log(
    `local API, each stage's frame after the POST was sent: ${[...apiStages]
      .map(([stage, at]) => `${stage} ${median(at).toFixed(0)}`)
      .join(', ')}`,
  );
  log(`SDK in process (no app): placeOrder → accepted: ${fmt(sdkTotal)}`);

  /* ---------- 3. page weight ---------- */
  const sizes: string[] = [];
  for (const path of ['/app.js', '/app.css', '/']) {
    const body = Buffer.from(await (await fetch(`${origin}${path}`)).arrayBuffer());
    sizes.push(
      `${path} ${(body.length / 1024).toFixed(1)} KB (gzip ${(gzipSync(body).length / 1024).toFixed(1)} KB)`,
    );
  }
  log('');
  log('## 3. Page weight (as served, minified)');
  for (const s of sizes) log(s);

  await stopVenue(v);
} finally {
  await chrome.close();
}
