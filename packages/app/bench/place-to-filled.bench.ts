/**
 * Issue 32's target "click Place → fully filled against the demo market" (results under the
 * heading "Place → fully filled" of docs/benchmarks/app.md): `nightjar start --demo-traders N` (what
 * `npm start -- --demo-traders 4` runs), the app's page in headless Chromium, a few USDC notes, then
 * per order: type a bid that crosses the demo traders' asks (their price moves around 150), click
 * Place, and time until the order's row reads fully filled; the app's `order` frame on the events
 * socket times the same moment without the page's render.
 *
 *   npm run bench:filled -w packages/app     (ORDERS=5 bids, TRADERS=4, PRICE=160; DOC=0 skips the doc)
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

import WebSocket from 'ws';

import { launchBrowser, openPage, VIEWPORTS, type Page } from '../test/browser/launch.js';
import { appApi, fmt, startVenue, stopVenue, writeSection } from './start-venue.js';

const ORDERS = Number(process.env.ORDERS ?? 5);
const TRADERS = Number(process.env.TRADERS ?? 4);
/** Above every ask the demo traders quote (a slow wave of ±2 around 150): a uniform price fills it lower. */
const PRICE = process.env.PRICE ?? '160';
/** Longest wait for one fill before it counts as not filled. */
const FILL_TIMEOUT_MS = Number(process.env.FILL_TIMEOUT_MS ?? 180_000);
const DOC = fileURLToPath(new URL('../../../docs/benchmarks/app.md', import.meta.url));
const HEADING = 'Place → fully filled';

/** The order ids the page's orders table shows now. */
async function rowIds(page: Page): Promise<Set<string>> {
  const ids = await Promise.all(
    (await page.locator('[data-testid^="state-"]').all()).map((l) => l.getAttribute('data-testid')),
  );
  return new Set(ids.filter((id): id is string => !!id).map((id) => id.slice('state-'.length)));
}

/** Polls (5 ms grain) until `check` answers, or `timeoutMs` passes (then undefined). */
async function poll<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    const v = await check();
    if (v !== undefined) return v;
    await delay(5);
  }
  return undefined;
}

/** Clicks Place with the ticket filled; confirms a far price if the ticket asks (it should not). */
async function clickPlace(page: Page, amount: string): Promise<number> {
  await page.getByLabel('Buy', { exact: true }).check();
  await page.getByLabel('Amount (SOL)', { exact: true }).fill(amount);
  await page.getByLabel('Price (USDC per SOL)').fill(PRICE);
  await page.getByLabel(/Expires in/).fill('5m');
  await page.getByTestId('amount-units').waitFor();
  const confirm = page.getByLabel(`I mean the price ${PRICE}.`);
  if (await confirm.isVisible()) await confirm.check();
  const clicked = performance.now();
  await page.getByRole('button', { name: 'Place bid' }).click();
  return clicked;
}

const v = await startVenue(['--demo-traders', String(TRADERS)]);
const chrome = await launchBrowser();
const lines: string[] = [];
try {
  const { origin, token, call } = appApi(v);
  const filledAt = new Map<string, number>();
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/api/v1/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.on('message', (data) => {
    const f = JSON.parse(String(data)) as { type: string; order?: { order_id: string; status: string } };
    if (f.type === 'order' && f.order?.status === 'fully_filled' && !filledAt.has(f.order.order_id))
      filledAt.set(f.order.order_id, performance.now());
  });
  const markets = (await call('GET', 'markets')) as unknown as { symbol: string; min_size: string }[];
  const amount = process.env.AMOUNT ?? markets.find((m) => m.symbol === 'SOL-USDC')?.min_size ?? '0.01';
  // One note per order, so no order waits for a split or for the last one's change note.
  await call('POST', 'faucet', { asset: 'USDC', amount: String(20 * ORDERS + 100) });
  await Promise.all(
    Array.from({ length: ORDERS }, () => call('POST', 'deposits', { asset: 'USDC', amount: '20' })),
  );
  const { page } = await openPage(chrome.browser, VIEWPORTS.desktop);
  await page.goto(v.ready.app_url);
  await page.getByTestId('attestation-status').filter({ hasText: 'Verified' }).waitFor({ timeout: 60_000 });

  const toResting: number[] = [];
  const toFilledPage: number[] = [];
  const toFilledFrame: number[] = [];
  let unfilled = 0;
  for (let i = 0; i < ORDERS; i++) {
    const before = await rowIds(page);
    const clicked = await clickPlace(page, amount);
    const id = await poll(async () => [...(await rowIds(page))].find((x) => !before.has(x)), 60_000);
    if (!id) throw new Error('the placed order never showed in the orders table');
    toResting.push(performance.now() - clicked);
    const row = page.getByTestId(`state-${id}`);
    const shown = await poll(
      async () =>
        /fully.filled|^filled$/i.test((await row.textContent()) ?? '') ? performance.now() : undefined,
      FILL_TIMEOUT_MS,
    );
    if (shown === undefined) {
      unfilled++;
      await call('DELETE', `orders/${id}`).catch(() => undefined);
      continue;
    }
    toFilledPage.push(shown - clicked);
    toFilledFrame.push((filledAt.get(id) ?? NaN) - clicked);
  }
  ws.close();

  lines.push(
    `\`npm run bench:filled -w packages/app\` (\`packages/app/bench/place-to-filled.bench.ts\`): \`nightjar start --demo-traders ${TRADERS}\`,`,
    `the page in headless Chromium, bids of ${amount} SOL at ${PRICE} USDC (above every demo ask), one note each.`,
    `Measured ${new Date().toISOString().slice(0, 10)}; medians in ms, each order in brackets.`,
    '',
    '| step | ms |',
    '| --- | ---: |',
    `| click Place → the row shows the order | ${fmt(toResting)} |`,
    `| click Place → the app's \`order\` frame says fully filled | ${fmt(toFilledFrame)} |`,
    `| **click Place → the row reads fully filled** | **${fmt(toFilledPage)}** |`,
    '',
    `${ORDERS - unfilled} of ${ORDERS} orders filled within ${FILL_TIMEOUT_MS / 1000} s.`,
  );
  console.log(lines.join('\n'));
  if (process.env.DOC !== '0') writeFileSync(DOC, writeSection(DOC, HEADING, lines.join('\n')));
} finally {
  await chrome.close();
  await stopVenue(v);
}
