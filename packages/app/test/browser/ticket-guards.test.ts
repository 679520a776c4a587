/**
 * The order ticket's guards in a real headless Chromium against the fake app server: what an order
 * locks and why, the fee and the clearing rule before sending; a far price held back until the
 * trader confirms it; the one-click split of the backing note; no API route on screen.
 */
import { describe, expect, it } from 'vitest';
import { api, open, usePages } from './fake-pages.js';
import type { Page } from './launch.js';

usePages();

async function typeOrder(page: Page, amount: string, price: string): Promise<void> {
  await page.getByLabel('Amount (SOL)', { exact: true }).fill(amount);
  await page.getByLabel('Price (USDC per SOL)').fill(price);
}

/** Text that is for API clients, never for a person at the screen. */
const ROUTE_OR_CODE = /\/api\/v1|\b(GET|POST|PATCH|DELETE) \/|splitNote|joinSplit|prepare_note|`/;

const placements = () => (api?.requests ?? []).filter((r) => r === 'POST /api/v1/orders');

describe('the order ticket guards (fake API)', () => {
  it('shows what the order locks and why the whole note, the fee and the clearing rule before sending', async () => {
    const page = await open();
    await typeOrder(page, '1', '141');
    await expect.poll(() => page.getByTestId('collateral').textContent()).toContain('141 USDC');
    expect(await page.getByTestId('note-lock').textContent()).toContain(
      'the whole note is out of use until the order ends',
    );
    expect(await page.getByTestId('fee').textContent()).toBe('0.141 USDC at your limit');
    expect(await page.getByTestId('clearing-rule').textContent()).toBe(
      'Uniform price per batch: you may fill better than your limit, never worse.',
    );
    expect(placements()).toEqual([]);
  });

  it('a price far from the recent fills is held back until the trader confirms it', async () => {
    const page = await open({ referencePrices: ['141'] });
    await typeOrder(page, '0.01', '14141');
    const warning = page.getByTestId('price-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('more than 20% away from your recent fill at 141 USDC');
    await page.getByRole('button', { name: 'Place bid' }).click();
    await page.getByTestId('price-confirm-needed').waitFor();
    expect(placements()).toEqual([]);
    await page.getByLabel('I mean the price 14141.').check();
    await page.getByRole('button', { name: 'Place bid' }).click();
    await page.getByRole('status').filter({ hasText: 'placed' }).waitFor();
    expect(api!.placed.map((b) => b.price)).toEqual(['14141']);
  });

  it('clicking Place before the preview arrives still checks the price first', async () => {
    const page = await open({ referencePrices: ['141'] });
    await typeOrder(page, '0.01', '14141');
    // At once: the debounced preview has not been asked yet.
    await page.getByRole('button', { name: 'Place bid' }).click();
    await page.getByTestId('price-confirm-needed').waitFor();
    expect(placements()).toEqual([]);
  });

  it('a confirmation holds for the price confirmed only; a near price needs none', async () => {
    const page = await open({ referencePrices: ['141'] });
    await typeOrder(page, '0.01', '14141');
    await page.getByLabel('I mean the price 14141.').check();
    await page.getByLabel('Price (USDC per SOL)').fill('1414');
    await page.getByRole('button', { name: 'Place bid' }).click();
    await page.getByTestId('price-confirm-needed').waitFor();
    expect(placements()).toEqual([]);
    await page.getByLabel('Price (USDC per SOL)').fill('150');
    await page.getByRole('button', { name: 'Place bid' }).click();
    await page.getByRole('status').filter({ hasText: 'placed' }).waitFor();
    expect(api!.placed.map((b) => b.price)).toEqual(['150']);
  });

  it('offers to split the note to the order size, then places with one click', async () => {
    const page = await open();
    await typeOrder(page, '1', '141');
    const offer = page.getByRole('button', { name: 'Split the note to 141 USDC, then place' });
    await offer.waitFor();
    expect(await page.getByTestId('split-offer').textContent()).toContain('Keeps 859 USDC free');
    await offer.click();
    await page.getByRole('status').filter({ hasText: 'placed' }).waitFor();
    expect(api!.placed).toHaveLength(1);
    expect(api!.placed[0]).toMatchObject({ price: '141', prepare_note: 'exact' });
  });

  it("Place alone sends no split: the split is the trader's choice", async () => {
    const page = await open();
    await typeOrder(page, '1', '141');
    await page.getByTestId('split-offer').waitFor();
    await page.getByRole('button', { name: 'Place bid' }).click();
    await page.getByRole('status').filter({ hasText: 'placed' }).waitFor();
    expect(api!.placed[0]?.prepare_note).toBeUndefined();
  });

  it('errors show the plain sentence, never an API route or SDK code', async () => {
    const page = await open({
      placeError: {
        status: 409,
        error: {
          code: 'NOTE_NOT_FREE',
          message: 'The note backs another order.',
          fix: 'Cancel that order first. (DELETE /api/v1/orders/{id})',
          hint: 'DELETE /api/v1/orders/{id}',
        },
      },
    });
    // The preview's error: more than the wallet's free USDC.
    await typeOrder(page, '100', '141');
    const problems = page.getByRole('alert', { name: 'Problems with this order' });
    await expect.poll(async () => (await problems.textContent()) ?? '').toContain('Fix: Deposit more first.');
    await typeOrder(page, '1', '141');
    await page.getByRole('button', { name: 'Place bid' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'The order was not placed' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Fix: Cancel that order first.');
    await typeOrder(page, '100', '141');
    await expect.poll(async () => (await problems.textContent()) ?? '').toContain('Deposit more first.');
    const screen = (await page.locator('main, body').first().innerText()) ?? '';
    expect(screen).not.toMatch(ROUTE_OR_CODE);
  });
});
