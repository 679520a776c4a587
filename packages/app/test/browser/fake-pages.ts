/**
 * What every browser test file against the fake API shares: one Chromium per file, a fresh fake
 * API and page per test, closed after it. A file calls `usePages()` once at its top; `api` and
 * `consoleErrors` are the current test's (live bindings).
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFakeApi, type FakeApi } from './fake-api.js';
import {
  launchBrowser,
  openPage,
  VIEWPORTS,
  type BrowserContext,
  type LaunchedBrowser,
  type Page,
} from './launch.js';

let chrome: LaunchedBrowser | undefined;
let context: BrowserContext | undefined;
export let api: FakeApi | undefined;
export let consoleErrors: string[] = [];

export function usePages(): void {
  beforeAll(async () => {
    chrome = await launchBrowser();
  }, 120_000);

  afterEach(async () => {
    await context?.close().catch(() => undefined);
    context = undefined;
    await api?.close();
    api = undefined;
  });

  afterAll(async () => {
    await chrome?.close();
  });
}

/** A fake API for this test, without a page. */
export async function startApi(opts: Parameters<typeof startFakeApi>[0] = {}): Promise<FakeApi> {
  api = await startFakeApi(opts);
  return api;
}

/** A fake API and a page on it, once the page's events socket is live. */
export async function open(
  opts: Parameters<typeof startFakeApi>[0] = {},
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
  hash = '',
): Promise<Page> {
  const served = await startApi(opts);
  const o = await openPage(chrome!.browser, viewport);
  context = o.context;
  consoleErrors = o.consoleErrors;
  await o.page.goto(`${served.url}/${hash}`);
  await o.page.getByTestId('connection').filter({ hasText: 'Live' }).waitFor();
  return o.page;
}
