/**
 * The web front end in a real headless Chromium against a fake app server (canned JSON per
 * api-types.ts, the real registerWebApp): fast and deterministic, no venue and no proofs.
 */
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../src/api-types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { buildWebBundle, CONTENT_SECURITY_POLICY, registerWebApp } from '../../src/web/index.js';
import { FAKE_FUNDING_ADDRESS, failedVenue, sampleFills, verifiedVenue } from './fake-api.js';
import { refusedSends, sendsSettled, setAnyway, submitAnyway, VIEWPORTS } from './launch.js';
import { api, consoleErrors, context, open, startApi, usePages } from './fake-pages.js';

usePages();

const nonGet = () => (api?.requests ?? []).filter((r) => !r.startsWith('GET '));

function order(over: Partial<OrderView> = {}): OrderView {
  return {
    order_id: 'ord-live-1',
    symbol: 'SOL-USDC',
    side: 'bid',
    side_label: 'Buy',
    type: 'limit',
    amount: '1.5',
    price: '101.25',
    filled: '0',
    status: 'pending',
    status_label: 'Open',
    terminal: false,
    created_at: Date.now(),
    expires_at: Date.now() + 60_000,
    ...over,
  };
}

describe('the trading app in a browser (fake API)', () => {
  it('serves the page under a strict CSP with no inline script, and a small bundle', async () => {
    const served = await startApi();
    const res = await fetch(`${served.url}/`);
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const js = await fetch(`${served.url}/app.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
    const size = (await js.arrayBuffer()).byteLength;
    expect(size).toBeLessThan(200 * 1024);
    const css = await fetch(`${served.url}/app.css`);
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  it('a packaged app (no web/ sources) serves the prebuilt bundle from dist/web', async () => {
    const out = mkdtempSync(join(tmpdir(), 'nightjar-web-'));
    try {
      const built = await buildWebBundle(out);
      const app = Fastify();
      await registerWebApp(app, { sourceDir: join(out, 'no-sources-here'), distDir: out });
      const js = await app.inject({ url: '/app.js' });
      expect(js.rawPayload.equals(built.js)).toBe(true);
      const index = await app.inject({ url: '/' });
      expect(index.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      await app.close();
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('shows a verified attestation with each check and what it verified', async () => {
    const page = await open();
    await expect.poll(() => page.getByTestId('attestation-status').textContent()).toContain('Verified');
    for (const id of ['a', 'b', 'c', 'd']) {
      const text = await page.getByTestId(`check-${id}`).textContent();
      expect(text).toContain(`(${id})`);
    }
    expect(await page.getByTestId('check-a').textContent()).toContain('TCB UpToDate');
    expect(await page.getByRole('button', { name: 'Place bid' }).isEnabled()).toBe(true);
    expect(await page.getByRole('alert').filter({ hasText: 'attestation failed' }).count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('a failed attestation shows the banner, disables every trading control and sends nothing', async () => {
    const page = await open({ venue: failedVenue() });
    const banner = page
      .getByRole('alert')
      .filter({ hasText: "The venue's attestation failed: nothing is sent" });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('not the pinned release');
    expect(await page.getByTestId('attestation-status').textContent()).toContain('Failed');
    for (const name of ['Place bid', 'Deposit', 'Withdraw'])
      expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Amount (SOL)', { exact: true }).isDisabled()).toBe(true);
    // Even a forced click and a forced submit send nothing.
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET') sent.push(`${r.method()} ${r.url()}`);
    });
    await page.getByRole('button', { name: 'Place bid' }).click({ force: true });
    await page.getByRole('button', { name: 'Deposit' }).click({ force: true });
    await page.evaluate("document.querySelector('form')?.requestSubmit()");
    // A script that fills the disabled deposit and withdraw forms and submits them: their handlers
    // run, and the api layer refuses both (counted on the page) before any network.
    await submitAnyway(page, 'dep-amount', '5');
    await setAnyway(page, 'wd-recipient', '4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM');
    await submitAnyway(page, 'wd-amount', '12.5');
    await sendsSettled(page);
    expect(await refusedSends(page)).toBe(2);
    expect(sent).toEqual([]);
    expect(nonGet()).toEqual([]);
  });

  it('a venue frame that turns the attestation to failed disables the controls at once', async () => {
    const page = await open();
    expect(await page.getByRole('button', { name: 'Place bid' }).isEnabled()).toBe(true);
    api!.push({ type: 'venue', venue: failedVenue() });
    await page.getByText("The venue's attestation failed: nothing is sent").waitFor();
    expect(await page.getByRole('button', { name: 'Place bid' }).isDisabled()).toBe(true);
    api!.push({ type: 'venue', venue: verifiedVenue() });
    await expect.poll(() => page.getByRole('button', { name: 'Place bid' }).isEnabled()).toBe(true);
  });

  it('previews the exact smallest-unit conversion as the user types', async () => {
    const page = await open();
    await page.getByLabel('Amount (SOL)', { exact: true }).fill('1.5');
    await page.getByLabel('Price (USDC per SOL)').fill('101.25');
    await expect.poll(() => page.getByTestId('amount-units').textContent()).toBe('1500000000');
    expect(await page.getByTestId('price-units').textContent()).toBe('101250000');
    expect(await page.getByTestId('conversion').textContent()).toContain('151.875 USDC');
    expect(api!.requests).toContain('POST /api/v1/orders/preview');
    // Debounced: typing a whole number sends far fewer previews than keystrokes.
    const before = api!.requests.filter((r) => r === 'POST /api/v1/orders/preview').length;
    await page.getByLabel('Amount (SOL)', { exact: true }).press('End');
    await page.getByLabel('Amount (SOL)', { exact: true }).pressSequentially('2345', { delay: 20 });
    await expect.poll(() => page.getByTestId('amount-units').textContent()).toBe('1523450000');
    const after = api!.requests.filter((r) => r === 'POST /api/v1/orders/preview').length;
    expect(after - before).toBeLessThanOrEqual(2);
  });

  it('shows validation errors with their fix, before sending anything', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Place bid' }).click();
    const problems = page.getByRole('alert', { name: 'Problems with this order' });
    await problems.waitFor();
    const text = (await problems.textContent()) ?? '';
    expect(text).toContain('The amount is missing.');
    expect(text).toContain('Fix: Enter how much SOL to buy, at least 0.001 SOL.');
    expect(text).toContain('The price is missing.');
    await page.getByLabel('Amount (SOL)', { exact: true }).fill('1');
    await page.getByLabel('Price (USDC per SOL)').fill('100');
    await page.getByLabel(/Expires in/).fill('2 weeks');
    await expect.poll(async () => (await problems.textContent()) ?? '').toContain('is not a duration');
    expect(await problems.textContent()).toContain('Fix: Write it like 30s, 5m or 1h, between 5s and 1h.');
    await page.getByLabel(/Expires in/).fill('5m');
    // The app's own preview errors (a price off the tick) show with their fix and nearest prices.
    await page.getByLabel('Price (USDC per SOL)').fill('100.005');
    await expect.poll(async () => (await problems.textContent()) ?? '').toContain('not on the tick');
    expect(await problems.textContent()).toContain('Fix: Use 100.00 or 100.01.');
    await page.getByRole('button', { name: 'Use 100.01' }).click();
    expect(await page.getByLabel('Price (USDC per SOL)').inputValue()).toBe('100.01');
    expect(nonGet().filter((r) => r !== 'POST /api/v1/orders/preview')).toEqual([]);
  });

  it('places an order with proof progress, and order frames update the table live', async () => {
    const page = await open();
    await page.getByLabel('Amount (SOL)', { exact: true }).fill('1.5');
    await page.getByLabel('Price (USDC per SOL)').fill('101.25');
    await page.getByLabel(/Expires in/).fill('30s');
    await page.getByRole('button', { name: 'Place bid' }).click();
    await page.getByRole('status').filter({ hasText: 'placed: Open' }).waitFor();
    await expect.poll(() => page.getByTestId('progress').textContent()).toContain('proving');
    expect(await page.getByTestId('state-ord-1').textContent()).toBe('Open');
    // Live frames from the socket drive the row.
    api!.push({
      type: 'order',
      order: order({
        order_id: 'ord-1',
        status: 'pending_settlement',
        status_label: 'Settling',
        filled: '1.5',
      }),
    });
    await expect.poll(() => page.getByTestId('state-ord-1').textContent()).toBe('Settling');
    api!.push({
      type: 'order',
      order: order({
        order_id: 'ord-1',
        status: 'fully_filled',
        status_label: 'Filled',
        filled: '1.5',
        terminal: true,
      }),
    });
    await expect.poll(() => page.getByTestId('state-ord-1').textContent()).toBe('Filled');
    // A brand-new order seen only on the stream appears too, and can be cancelled.
    api!.push({
      type: 'order',
      order: order({ order_id: 'ord-live-9', side: 'ask', side_label: 'Sell', price: '103' }),
    });
    await page.getByTestId('state-ord-live-9').waitFor();
    api!.orders.set(
      'ord-live-9',
      order({ order_id: 'ord-live-9', side: 'ask', side_label: 'Sell', price: '103' }),
    );
    await page.getByRole('button', { name: 'Cancel order ord-live-9' }).click();
    await page.getByRole('button', { name: 'Yes, cancel order ord-live-9' }).click();
    await expect.poll(() => page.getByTestId('state-ord-live-9').textContent()).toBe('Cancelled');
    expect(api!.requests).toContain('DELETE /api/v1/orders/ord-live-9');
  });

  it('Cancel all asks first; "Keep them" sends nothing, "Yes, cancel all" cancels every live order', async () => {
    const page = await open({
      orders: [order(), order({ order_id: 'ord-live-2', side: 'ask', side_label: 'Sell' })],
    });
    await page.getByRole('button', { name: 'Cancel all' }).click();
    const ask = page.getByRole('group', { name: 'Confirm cancel all' });
    expect(await ask.textContent()).toContain('2 shown here');
    await ask.getByRole('button', { name: 'Keep them' }).click();
    expect(nonGet()).toEqual([]);
    await page.getByRole('button', { name: 'Cancel all' }).click();
    await page.getByRole('button', { name: 'Yes, cancel all' }).click();
    await expect
      .poll(() => page.getByTestId('cancel-all-result').textContent())
      .toContain('Cancelled 2 orders.');
    expect(nonGet()).toEqual(['POST /api/v1/orders/cancel-all']);
    for (const id of ['ord-live-1', 'ord-live-2'])
      await expect.poll(() => page.getByTestId(`state-${id}`).textContent()).toBe('Cancelled');
    expect(consoleErrors).toEqual([]);
  });

  it('deposits from the dev faucet and shows the exact units', async () => {
    const page = await open();
    expect(await page.getByLabel('From the dev faucet').isChecked()).toBe(true);
    await page.locator('#dep-asset').selectOption('USDC');
    await page.locator('#dep-amount').fill('250');
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Deposited 250 USDC' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Deposited' }).textContent()).toContain(
      '250000000',
    );
  });

  it('withdraws to the address typed; to the funding address it warns what that links and asks first', async () => {
    const page = await open();
    await page.locator('#wd-asset').selectOption('USDC');
    await page.locator('#wd-amount').fill('12.5');
    // No recipient: nothing is sent, the form asks for one.
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter the ledger address to withdraw to' }).waitFor();
    expect(api!.requests).not.toContain('POST /api/v1/withdrawals');
    await page.getByLabel('Withdraw to (ledger address)').fill(FAKE_FUNDING_ADDRESS);
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const warning = page.getByTestId('wd-link-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('This links your withdrawal to your deposits.');
    expect(await warning.textContent()).toContain(
      'links this withdrawal (its amount and time) to every deposit',
    );
    expect(await page.getByRole('status').filter({ hasText: 'Withdrew' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Withdraw to my funding address anyway' }).click();
    await page.getByRole('status').filter({ hasText: 'Withdrew 12.5 USDC' }).waitFor();
    expect(api!.requests.filter((r) => r === 'POST /api/v1/withdrawals')).toHaveLength(2);
  });

  it('Log out ends the session and says how to get a new one', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Logged out' }).waitFor();
    expect(api!.requests).toContain('POST /api/v1/session/logout');
    expect(await page.locator('main').textContent()).toContain('nightjar app --link');
  });

  it('shows the connection state and reconnects after the socket drops', async () => {
    const page = await open();
    api!.sockets.accept = false;
    api!.dropSockets();
    await expect
      .poll(() => page.getByTestId('connection').textContent())
      .toMatch(/Disconnected|Reconnecting/);
    api!.sockets.accept = true;
    await expect
      .poll(() => page.getByTestId('connection').textContent(), { timeout: 20_000 })
      .toContain('Live');
  });

  it('the keyboard reaches Place (visible focus) and submits with Enter', async () => {
    const page = await open();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate('document.activeElement?.textContent')) === 'Place bid';
    }
    expect(reached).toBe(true);
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).toBe('solid');
    await page.keyboard.press('Enter');
    await page.getByRole('alert', { name: 'Problems with this order' }).waitFor();
  });

  it('every input has a label', async () => {
    const page = await open({ fills: sampleFills() });
    const unlabelled = await page.evaluate(
      "[...document.querySelectorAll('input, select')].filter((el) => !el.labels || el.labels.length === 0).map((el) => el.outerHTML)",
    );
    expect(unlabelled).toEqual([]);
    await page.goto(`${api!.url}/#/operator`);
    await page.getByLabel('API key').waitFor();
    const unlabelledOp = await page.evaluate(
      "[...document.querySelectorAll('input, select')].filter((el) => !el.labels || el.labels.length === 0).length",
    );
    expect(unlabelledOp).toBe(0);
  });

  it('has no horizontal scroll at 375 px (trader and operator views)', async () => {
    const page = await open(
      {
        fills: sampleFills(),
        orders: [
          order(),
          order({
            order_id: 'ord-2',
            status: 'fully_filled',
            status_label: 'Filled',
            terminal: true,
          }),
        ],
      },
      VIEWPORTS.phone,
    );
    await page.getByTestId('state-ord-2').waitFor();
    const overflow = () =>
      page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.goto(`${api!.url}/#/operator`);
    await page.getByRole('button', { name: 'Use the dev admin' }).click();
    await page.getByRole('heading', { name: 'Transparency' }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });

  it('operator view: no admin read (no 401 in the console) before the login, and Log out ends it', async () => {
    const page = await open({}, VIEWPORTS.desktop, '#/operator');
    await page.getByLabel('API key').waitFor();
    const operatorReads = () =>
      api!.requests.filter(
        (r) => r.startsWith('GET /api/v1/operator/') && r !== 'GET /api/v1/operator/session',
      );
    expect(operatorReads()).toEqual([]);
    expect(consoleErrors.filter((e) => e.includes('401'))).toEqual([]);
    await page.getByRole('button', { name: 'Use the dev admin' }).click();
    await page.getByRole('heading', { name: 'Transparency' }).waitFor();
    expect(operatorReads().length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Log out admin' }).click();
    await page.getByLabel('API key').waitFor();
    expect(api!.requests).toContain('POST /api/v1/operator/logout');
    expect(api!.operator.loggedIn).toBe(false);
    const cookies = await context!.cookies();
    expect(cookies.find((c) => c.name === 'nightjar_session')?.value).toBe('after-logout');
    await expect.poll(() => page.getByRole('heading', { name: 'Transparency' }).count()).toBe(0);
    expect(consoleErrors.filter((e) => e.includes('401'))).toEqual([]);
  });

  it('operator view: dev-admin login, then status, transparency per mint, metrics per stage, drain and accounts', async () => {
    const page = await open({}, VIEWPORTS.desktop, '#/operator');
    await page.getByLabel('API key').fill('wrong');
    await page.getByLabel('API secret').fill('x');
    await page.getByLabel('Passphrase').fill('y');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('The venue refused these credentials.').waitFor();
    await page.getByRole('button', { name: 'Use the dev admin' }).click();
    await page.getByRole('heading', { name: 'Transparency' }).waitFor();
    const transparency =
      (await page
        .locator('section', { has: page.getByRole('heading', { name: 'Transparency' }) })
        .textContent()) ?? '';
    expect(transparency).toContain('105 SOL');
    expect(transparency).toContain('9851.875 USDC');
    const metrics =
      (await page
        .locator('section', { has: page.getByRole('heading', { name: 'Settlement metrics' }) })
        .textContent()) ?? '';
    expect(metrics).toContain('1840.5');
    expect(metrics).toContain('proving');
    expect(await page.getByTestId('drain-state').textContent()).toBe('idle');
    await page.getByRole('button', { name: 'Start drain' }).click();
    await expect.poll(() => page.getByTestId('drain-state').textContent()).toBe('draining');
    await page.getByRole('button', { name: 'Cancel drain' }).click();
    await expect.poll(() => page.getByTestId('drain-state').textContent()).toBe('idle');
    await page.getByRole('button', { name: 'Disable account acct-7f3a' }).click();
    await page.getByRole('button', { name: 'Enable account acct-7f3a' }).waitFor();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('The secret and passphrase are shown once').waitFor();
    expect(api!.requests).toContain('POST /api/v1/operator/accounts/trader-key-7f3a00000000/disable');
  });
});
