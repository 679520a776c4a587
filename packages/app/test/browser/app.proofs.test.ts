/**
 * End to end in a real browser: a started venue (`nightjar start`, real proofs), the real app
 * server (`createAppServer`) and its web front end in headless Chromium. The page shows the
 * attestation verified; deposits with the faucet; places a bid that a second trader's ask (the SDK,
 * its own account) crosses and sees it reach fully filled; modifies a resting order to a new price
 * and cancels it; withdraws to the funding account (confirming the link warning) and sees that balance grow; the operator view
 * shows the trade in transparency and metrics. A forged venue (another release than the pinned one,
 * or a quote under a forger's platform root) makes the page say so and send nothing.
 *
 * SCREENSHOTS=1 also writes docs/app/{trader,operator}-{375,1280}.png from this venue.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccount,
  createClient,
  createWallet,
  deposit,
  placeOrder,
  requestFaucet,
  type Client,
} from '@nightjar/sdk';
import { createAppServer, type AppServer } from '../../src/index.js';
import type { VenueConfig } from '../../src/venue.js';
import { FAST_SLOTS, killAll, startVenueProcess, stopVenueProcess } from '@nightjar/testkit/process';
import { SimulatedPlatform } from '@nightjar/engine';
import { takeScreenshots } from '../../scripts/screenshots.js';
import {
  launchBrowser,
  openPage,
  refusedSends,
  sendsSettled,
  submitAnyway,
  VIEWPORTS,
  type LaunchedBrowser,
  type Page,
} from './launch.js';

const SLOT_MS = 200;
const FAST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };

interface Ready {
  base_url: string;
  ledger_url: string;
  ledger_dev_secret: string;
  compose_hash: string;
  platform_root: string;
  admin: { api_key: string; api_secret: string; passphrase: string };
}

let dir: string;
let venueProc: ChildProcess | undefined;
let ready: Ready;
let config: VenueConfig;
let app: AppServer | undefined;
let forgedApp: AppServer | undefined;
let chrome: LaunchedBrowser | undefined;
let seller: Client | undefined;
let page: Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nightjar-app-e2e-'));
  venueProc = await startVenueProcess(join(dir, 'venue'), FAST_SLOTS);
  ready = JSON.parse(readFileSync(join(dir, 'venue', 'ready.json'), 'utf8')) as Ready;
  config = {
    baseUrl: ready.base_url,
    ledgerUrl: ready.ledger_url,
    ledgerDevSecret: ready.ledger_dev_secret,
    composeHash: ready.compose_hash,
    pinnedRoot: new Uint8Array(readFileSync(ready.platform_root)),
    admin: ready.admin,
    dev: true,
  };
  app = await createAppServer({
    venue: config,
    stateDir: join(dir, 'app'),
    port: 0,
    walletPassword: 'e2e',
    walletScrypt: FAST_SCRYPT,
    slotMs: SLOT_MS,
  });
  chrome = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await chrome?.close();
  await seller?.close().catch(() => undefined);
  await forgedApp?.close().catch(() => undefined);
  await app?.close().catch(() => undefined);
  await stopVenueProcess(venueProc).catch(() => undefined);
  killAll();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** The second trader: its own account (made with the dev admin), wallet and SDK client. */
async function startSeller(): Promise<Client> {
  const venue = {
    baseUrl: ready.base_url,
    pinnedRoot: readFileSync(ready.platform_root),
    composeHash: ready.compose_hash,
    ledgerUrl: ready.ledger_url,
    ledgerDevSecret: ready.ledger_dev_secret,
    slotMs: SLOT_MS,
  };
  const admin = await createClient({ ...venue, credentials: ready.admin });
  const account = await createAccount(admin, { label: 'e2e-seller' });
  await admin.close();
  const wallet = createWallet({ path: join(dir, 'seller.wallet'), password: 'seller', scrypt: FAST_SCRYPT });
  return createClient({ ...venue, credentials: account, wallet, stateDir: join(dir, 'seller-state') });
}

const stateOf = (id: string) => page.getByTestId(`state-${id}`).textContent();

/** A cell of an order's row in the orders table, by its column. */
const cellOf = (id: string, column: string) =>
  page
    .locator('tr', { has: page.getByTestId(`state-${id}`) })
    .locator(`td[data-label="${column}"]`)
    .textContent();

/** A human amount as an exact integer (12 decimals), so sums compare without float error. */
function units(amount: string): bigint {
  const m = /^\s*(\d+)(?:\.(\d{1,12}))?\s*$/.exec(amount);
  if (!m) throw new Error(`not an amount: "${amount}"`);
  return BigInt(m[1]!) * 10n ** 12n + BigInt((m[2] ?? '').padEnd(12, '0'));
}

const stateIds = async (): Promise<(string | null)[]> =>
  Promise.all(
    (await page.locator('[data-testid^="state-"]').all()).map((l) => l.getAttribute('data-testid')),
  );

/** The order id the page shows after Place (from its "Order … placed" status, full id in the table). */
async function placeFromTicket(
  side: 'buy' | 'sell',
  amount: string,
  price: string,
  expiry: string,
): Promise<string> {
  const before = new Set(await stateIds());
  await page.getByLabel(side === 'buy' ? 'Buy' : 'Sell', { exact: true }).check();
  await page.getByLabel('Amount (SOL)', { exact: true }).fill(amount);
  await page.getByLabel('Price (USDC per SOL)').fill(price);
  await page.getByLabel(/Expires in/).fill(expiry);
  await page.getByTestId('amount-units').waitFor();
  await page.getByRole('button', { name: side === 'buy' ? 'Place bid' : 'Place ask' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /placed:/ })
    .waitFor({ timeout: 120_000 });
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        const now = await stateIds();
        id = now.find((t) => t && !before.has(t))?.slice('state-'.length);
        return id;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return id!;
}

describe('the trading app end to end (real venue, real proofs, real browser)', () => {
  it('shows the venue attestation verified, each check passed', async () => {
    const o = await openPage(chrome!.browser, VIEWPORTS.desktop);
    page = o.page;
    await page.goto(app!.url);
    await expect.poll(() => page.getByTestId('attestation-status').textContent()).toContain('Verified');
    for (const id of ['a', 'b', 'c', 'd'])
      expect(await page.getByTestId(`check-${id}`).getAttribute('class')).toBe('ok');
    await page.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    expect(o.consoleErrors).toEqual([]);
  });

  it('deposits USDC from the dev faucet', async () => {
    expect(await page.getByLabel('From the dev faucet').isChecked()).toBe(true);
    await page.locator('#dep-asset').selectOption('USDC');
    await page.locator('#dep-amount').fill('200');
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    const done = page.getByRole('status').filter({ hasText: 'Deposited 200 USDC' });
    await done.waitFor({ timeout: 120_000 });
    expect(await done.textContent()).toContain('200000000');
    await expect
      .poll(async () => (await page.locator('section', { hasText: 'Balances' }).textContent()) ?? '', {
        timeout: 60_000,
      })
      .toMatch(/USDC/);
  }, 180_000);

  it("places a bid that a second trader's ask crosses, and sees it fully filled", async () => {
    const bid = await placeFromTicket('buy', '0.5', '100', '5m');
    expect(await stateOf(bid)).toMatch(/Open|Partly filled|Settling/);
    seller = await startSeller();
    await requestFaucet(seller, { asset: 'SOL', amount: '1' });
    await deposit(seller, { asset: 'SOL', amount: '1' });
    await placeOrder(seller, {
      symbol: 'SOL-USDC',
      side: 'ask',
      amount: '0.5',
      price: '100',
      expiry: { seconds: 120 },
    });
    await expect.poll(() => stateOf(bid), { timeout: 180_000, interval: 500 }).toBe('Filled');
    // The fill shows with its settlement.
    const fills = page.locator('section', { has: page.getByRole('heading', { name: 'Fills' }) });
    await expect.poll(async () => (await fills.textContent()) ?? '', { timeout: 60_000 }).toContain('100');
  }, 300_000);

  it('modifies a resting order to a new price, then cancels it', async () => {
    const bid = await placeFromTicket('buy', '0.25', '90', '5m');
    await expect.poll(() => stateOf(bid), { timeout: 60_000 }).toBe('Open');
    expect(await cellOf(bid, 'Price')).toBe('90');
    const before = new Set(await stateIds());
    await page.getByRole('button', { name: new RegExp(`^Modify order ${bid.slice(0, 8)}`) }).click();
    await page.locator(`#mod-${bid}-price`).fill('95');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // A modify replaces the order: the table shows the new one resting at 95, the old one cancelled.
    let moved: string | undefined;
    await expect
      .poll(
        async () => {
          moved = (await stateIds()).find((t) => t && !before.has(t))?.slice('state-'.length);
          return moved;
        },
        { timeout: 120_000 },
      )
      .toBeTruthy();
    await expect.poll(() => stateOf(moved!), { timeout: 60_000 }).toBe('Open');
    expect(await cellOf(moved!, 'Price')).toBe('95');
    expect(await cellOf(moved!, 'Amount')).toBe('0.25');
    await expect.poll(() => stateOf(bid), { timeout: 60_000 }).toBe('Cancelled');
    await page.getByRole('button', { name: new RegExp(`^Cancel order ${moved!.slice(0, 8)}`) }).click();
    // Cancel asks first.
    await page.getByRole('button', { name: new RegExp(`^Yes, cancel order ${moved!.slice(0, 8)}`) }).click();
    await expect.poll(() => stateOf(moved!), { timeout: 60_000 }).toBe('Cancelled');
  }, 240_000);

  it('withdraws 12.5 USDC to the funding address after the link warning: that balance grows by exactly that', async () => {
    const balances = page.locator('section', {
      has: page.getByRole('heading', { name: 'Balances', exact: true }),
    });
    const funding = async () =>
      units(
        (await balances
          .locator('tr', { has: page.locator('td[data-label="Asset"]', { hasText: /^USDC$/ }) })
          .locator('td[data-label="Funding"]')
          .textContent()) ?? '',
      );
    const before = await funding();
    await page.locator('#wd-asset').selectOption('USDC');
    await page.locator('#wd-amount').fill('12.5');
    // To the wallet's funding address: the app says what that links and asks first.
    await page.getByLabel('Withdraw to (ledger address)').fill(app!.wallet.keys.funding.address);
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.getByTestId('wd-link-warning').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Withdraw to my funding address anyway' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Withdrew 12.5 USDC' });
    await done.waitFor({ timeout: 120_000 });
    expect(await done.textContent()).toContain('12500000');
    await expect.poll(funding, { timeout: 30_000 }).toBe(before + units('12.5'));
  }, 180_000);

  it('the operator view shows the trade in transparency and metrics', async () => {
    await page.goto(`${app!.origin}/#/operator`);
    await page.getByRole('button', { name: 'Use the dev admin' }).click();
    const transparency = page.locator('section', {
      has: page.getByRole('heading', { name: 'Transparency' }),
    });
    await transparency.waitFor();
    await expect
      .poll(async () => (await transparency.textContent()) ?? '', { timeout: 30_000 })
      .toContain('USDC');
    const text = (await transparency.textContent()) ?? '';
    expect(text).toContain('SOL');
    expect(text).toMatch(/confirmed matches\s*[1-9]/);
    const metrics = page.locator('section', {
      has: page.getByRole('heading', { name: 'Settlement metrics' }),
    });
    await expect.poll(async () => (await metrics.textContent()) ?? '', { timeout: 30_000 }).toMatch(/p50 ms/);
    expect(await page.getByTestId('drain-state').textContent()).toBe('idle');
  }, 120_000);

  it('writes the screenshots (SCREENSHOTS=1)', async () => {
    if (process.env.SCREENSHOTS !== '1') return;
    const written = await takeScreenshots(chrome!.browser, app!.loginUrl());
    expect(written).toHaveLength(4);
  }, 120_000);

  // Two forgeries: (c) a venue running another release than the pinned one; (a) a quote that does
  // not chain to the pinned platform root (signed under another simulated PKI, as a forger's own).
  const forgeries = [
    { name: 'another release (check c)', check: 'c', pin: async () => ({ composeHash: 'ee'.repeat(32) }) },
    {
      name: "a quote under a forger's platform root (check a)",
      check: 'a',
      pin: async () => {
        const forger = await SimulatedPlatform.open({ dir: undefined, composeHash: config.composeHash });
        return { pinnedRoot: new Uint8Array(forger.rootCa.der) };
      },
    },
  ] as const;

  it.each(forgeries)(
    'a venue forged as $name: the page says the attestation failed and sends nothing',
    async ({ check, pin }) => {
      await forgedApp?.close();
      forgedApp = await createAppServer({
        venue: { ...config, ...(await pin()) },
        stateDir: join(dir, `forged-app-${check}`),
        port: 0,
        walletPassword: 'e2e',
        walletScrypt: FAST_SCRYPT,
        slotMs: SLOT_MS,
      });
      const o = await openPage(chrome!.browser, VIEWPORTS.desktop);
      const sent: string[] = [];
      o.page.on('request', (r) => {
        if (r.method() !== 'GET') sent.push(`${r.method()} ${r.url()}`);
      });
      await o.page.goto(forgedApp.url);
      await o.page.getByText("The venue's attestation failed: nothing is sent").waitFor({ timeout: 60_000 });
      expect(await o.page.getByTestId('attestation-status').textContent()).toContain('Failed');
      expect(await o.page.getByTestId(`check-${check}`).getAttribute('class')).toBe('bad');
      expect(await o.page.getByRole('button', { name: 'Place bid' }).isDisabled()).toBe(true);
      await o.page.getByRole('button', { name: 'Place bid' }).click({ force: true });
      await o.page.getByRole('button', { name: 'Deposit', exact: true }).click({ force: true });
      // A script that fills the disabled deposit form and submits it: the handler runs, and the
      // api layer refuses (counted on the page) before any network.
      await submitAnyway(o.page, 'dep-amount', '5');
      await sendsSettled(o.page);
      expect(await refusedSends(o.page)).toBe(1);
      expect(sent).toEqual([]);
      await o.context.close();
    },
    120_000,
  );
});
