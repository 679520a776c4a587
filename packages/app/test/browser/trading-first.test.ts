/**
 * Trading first (issue 32, items 3 and 4), in a real headless Chromium against the fake API, at
 * 375 and 1280 px: the attestation is one "Verified ✓" line with its checks on demand; the ticket,
 * balances and open orders come before everything else; balances say usable and arriving; cancel
 * asks first and sits apart from the modify form, which opens in its own row; a fill awaiting its
 * memo draws no chart; the per-market figures show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FillView, OrderView } from '../../src/api-types.js';
import { sampleFigures, sampleFills, startFakeApi, type FakeApi } from './fake-api.js';
import { launchBrowser, openPage, VIEWPORTS, type LaunchedBrowser, type Page } from './launch.js';

let chrome: LaunchedBrowser;
beforeAll(async () => {
  chrome = await launchBrowser();
}, 120_000);
afterAll(() => chrome?.close());

/** Runs `check` on the page served by a fresh fake API at `viewport`, then closes both. */
async function onPage(
  opts: Parameters<typeof startFakeApi>[0],
  viewport: { width: number; height: number },
  check: (page: Page, api: FakeApi) => Promise<void>,
): Promise<void> {
  const api = await startFakeApi(opts);
  const { page, context } = await openPage(chrome.browser, viewport);
  try {
    await page.goto(`${api.url}/`);
    await page.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
    await check(page, api);
  } finally {
    await context.close().catch(() => undefined);
    await api.close();
  }
}

/** A resting ask, partly filled. */
const liveOrder: OrderView = {
  order_id: 'ord-rest-7',
  symbol: 'SOL-USDC',
  side: 'ask',
  side_label: 'Sell',
  type: 'limit',
  amount: '0.75',
  price: '104.5',
  filled: '0.25',
  status: 'partially_filled',
  status_label: 'Partly filled',
  terminal: false,
  created_at: Date.now(),
};

/** The top of each trader section (by its heading), in page pixels. */
async function tops(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, id] of [
    ['venue', 'attestation-details'],
    ['ticket', 'ticket-h'],
    ['balances', 'balances-h'],
    ['orders', 'orders-h'],
    ['fills', 'fills-h'],
    ['transfers', 'transfers-h'],
  ] as const) {
    const el = id.endsWith('-h') ? page.locator(`#${id}`) : page.getByTestId(id);
    const box = await el.boundingBox();
    if (!box) throw new Error(`no ${name} section`);
    out[name] = box.y;
  }
  return out;
}

describe.each([
  ['375 px', VIEWPORTS.phone],
  ['1280 px', VIEWPORTS.desktop],
])('trading first at %s', (_name, viewport) => {
  it('one "Verified ✓" line, then the ticket, balances and open orders before fills and transfers', () =>
    onPage({ orders: [liveOrder], fills: sampleFills() }, viewport, async (page) => {
      const status = page.getByTestId('attestation-status');
      await expect.poll(() => status.textContent()).toBe('Verified ✓');
      // One line: the checks are hidden until asked for.
      const line = await page.getByTestId('attestation-details').boundingBox();
      expect(line!.height).toBeLessThan(60);
      expect(await page.getByTestId('check-a').isVisible()).toBe(false);
      const t = await tops(page);
      expect(t.venue).toBeLessThan(t.ticket!);
      for (const first of ['ticket', 'balances', 'orders'])
        for (const later of ['fills', 'transfers'])
          expect(t[first], `${first} before ${later}`).toBeLessThan(t[later]!);
      expect(t.fills).toBeLessThan(t.transfers!);
      if (viewport.width >= 900)
        expect(t.balances).toBe(t.ticket); // side by side
      else expect(t.ticket).toBeLessThan(t.balances!);
      expect(t.balances).toBeLessThan(t.orders!);
      // Details on demand: every check with what it verified.
      await page.getByTestId('attestation-details').locator('summary').click();
      await page.getByTestId('check-a').waitFor({ state: 'visible' });
      expect(await page.getByTestId('check-a').textContent()).toContain('TCB UpToDate');
      // Nothing scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
    }));

  it('balances say usable and arriving, never "available"', () =>
    onPage({}, viewport, async (page) => {
      const balances = page.locator('section[aria-labelledby="balances-h"]');
      await balances.getByText('1000').first().waitFor();
      const text = (await balances.textContent()) ?? '';
      expect(text).toContain('Usable');
      expect(text).toContain('Arriving');
      expect(text).toContain('250'); // the USDC arriving
      expect(text).not.toMatch(/Available/);
    }));

  it('cancel asks first and sits apart from the modify form, which opens in its own row', () =>
    onPage({ orders: [liveOrder] }, viewport, async (page, api) => {
      const cancel = page.getByRole('button', { name: 'Cancel order ord-rest-7' });
      await cancel.click();
      // Asking sends nothing; "Keep it" backs out.
      await page.getByRole('button', { name: 'Keep it' }).click();
      await cancel.waitFor();
      expect(api.requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
      // The modify form opens in a row of its own: the order's row keeps its height.
      const row = page.locator('tr', { has: cancel });
      const before = await row.boundingBox();
      await page.getByRole('button', { name: 'Modify order ord-rest-7' }).click();
      const form = page.getByRole('form', { name: 'Modify order ord-rest-7' });
      await form.waitFor();
      expect(
        await page.locator('tr.detail-row').getByRole('form', { name: 'Modify order ord-rest-7' }).count(),
      ).toBe(1);
      expect((await row.boundingBox())!.height).toBe(before!.height);
      // Close and Cancel are apart: not in the same row, and far enough not to be mistaken.
      const close = await form.getByRole('button', { name: 'Close' }).boundingBox();
      const cancelBox = await cancel.boundingBox();
      const gap = Math.hypot(close!.x - cancelBox!.x, close!.y - cancelBox!.y);
      expect(gap).toBeGreaterThan(40);
      await form.getByRole('button', { name: 'Close' }).click();
      expect(api.requests.filter((r) => r.startsWith('DELETE'))).toEqual([]);
      // Confirmed: the cancel is sent.
      await cancel.click();
      await page.getByRole('button', { name: 'Yes, cancel order ord-rest-7' }).click();
      await expect
        .poll(() => api.requests.filter((r) => r.startsWith('DELETE')))
        .toEqual(['DELETE /api/v1/orders/ord-rest-7']);
    }));
});

describe('fills: figures per market, no empty chart', () => {
  const awaiting: FillView = {
    ...sampleFills()[0]!,
    fill_id: 'fill-waiting',
    price: '',
    size: '',
    fee: '',
    settlement: { stage: 'settling', outcome: 'pending' },
  };
  it('a fill awaiting its memo draws no chart', () =>
    onPage({ fills: [awaiting] }, VIEWPORTS.desktop, async (page) => {
      await page.locator('#fills-h').waitFor();
      await page.getByText('—').first().waitFor();
      expect(await page.locator('figure.chart').count()).toBe(0);
    }));

  it('with fills, the chart and the figures: average prices, fees, realised P&L and the method', () =>
    onPage(
      { fills: [...sampleFills(), awaiting], fillSummary: [sampleFigures()] },
      VIEWPORTS.desktop,
      async (page) => {
        await page.getByTestId('pnl-SOL-USDC').waitFor();
        expect(await page.getByTestId('pnl-SOL-USDC').textContent()).toBe('19.43 USDC');
        const text = (await page.getByTestId('fill-figures').textContent()) ?? '';
        for (const s of ['110', '120', '0.33 USDC + 0.002 SOL', 'average cost']) expect(text).toContain(s);
        // The chart draws the 7 fills with a price, not the one awaiting its memo.
        expect(await page.locator('figure.chart desc').textContent()).toMatch(/^7 fills/);
      },
    ));
});
