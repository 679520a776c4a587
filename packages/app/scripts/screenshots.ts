/**
 * Screenshots of the trading app's views (trader, operator) at 375 and 1280 px into docs/app/.
 *
 *   npx tsx packages/app/scripts/screenshots.ts                 # against canned data (no venue)
 *   npx tsx packages/app/scripts/screenshots.ts <app_url>       # against a running app (its printed URL)
 *
 * With no URL the page is served by the browser tests' fake app server, so the images are
 * reproducible; the end-to-end browser test (test/browser/app.proofs.test.ts) takes the same
 * shots of a real venue when SCREENSHOTS=1.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleFigures, sampleFills, startFakeApi } from '../test/browser/fake-api.js';
import { launchBrowser, openPage, VIEWPORTS, type Browser, type Page } from '../test/browser/launch.js';

export const SHOTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/app');

/** Fills the ticket so the exact conversion shows, then shoots the page. */
async function shootTrader(page: Page, path: string): Promise<void> {
  await page.getByTestId('attestation-status').waitFor();
  const amount = page.getByLabel('Amount (SOL)', { exact: true });
  if (await amount.isEnabled()) {
    await amount.fill('0.5');
    await page.getByLabel('Price (USDC per SOL)').fill('101.25');
    await page
      .getByTestId('amount-units')
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
  }
  await page.screenshot({ path, fullPage: true });
}

async function shootOperator(page: Page, path: string): Promise<void> {
  const dev = page.getByRole('button', { name: 'Use the dev admin' });
  const transparency = page.getByRole('heading', { name: 'Transparency' });
  await Promise.race([dev.waitFor(), transparency.waitFor()]);
  if (await dev.isVisible()) await dev.click();
  await transparency.waitFor();
  await page.getByRole('heading', { name: 'Settlement metrics' }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path, fullPage: true });
}

/**
 * Shoots both views at both widths. `url` is the page to open first (it may carry the app's
 * one-time token; the session cookie then holds for the later pages, all in one browser context).
 */
export async function takeScreenshots(browser: Browser, url: string, outDir = SHOTS_DIR): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  const origin = new URL(url).origin;
  const { page, context } = await openPage(browser, VIEWPORTS.phone);
  try {
    await page.goto(url);
    for (const [name, vp] of [
      ['375', VIEWPORTS.phone],
      ['1280', VIEWPORTS.desktop],
    ] as const) {
      await page.setViewportSize(vp);
      await page.goto(`${origin}/#/`);
      await page.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
      const trader = resolve(outDir, `trader-${name}.png`);
      await shootTrader(page, trader);
      written.push(trader);
      await page.goto(`${origin}/#/operator`);
      const operator = resolve(outDir, `operator-${name}.png`);
      await shootOperator(page, operator);
      written.push(operator);
    }
  } finally {
    await context.close();
  }
  return written;
}

async function main(): Promise<void> {
  const url = process.argv[2];
  const chrome = await launchBrowser();
  const fake = url
    ? undefined
    : await startFakeApi({ fills: sampleFills(Date.now()).slice(-5), fillSummary: [sampleFigures()] });
  try {
    const written = await takeScreenshots(chrome.browser, url ?? `${fake!.url}/`);
    for (const f of written) console.log(f);
  } finally {
    await chrome.close();
    await fake?.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
