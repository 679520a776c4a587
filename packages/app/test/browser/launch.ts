/**
 * Headless Chromium for the browser tests, from npm packages alone: `@sparticuz/chromium` ships the
 * browser (unpacked to /tmp on first use) and `playwright-core` drives it. No network: background
 * networking is off and every page is on 127.0.0.1.
 */
import chromium from '@sparticuz/chromium';
import * as pw from 'playwright-core';

export type { Browser, BrowserContext, Page } from 'playwright-core';

export interface LaunchedBrowser {
  browser: pw.Browser;
  /** Closes the browser (and with it every context and page); safe to call twice. */
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<LaunchedBrowser> {
  const executablePath = await chromium.executablePath();
  const browser = await pw.chromium.launch({
    executablePath,
    // --single-process (a Lambda setting) ends the whole browser when one context closes.
    args: [...chromium.args.filter((a) => a !== '--single-process'), '--disable-background-networking'],
    headless: true,
  });
  let closed = false;
  return {
    browser,
    close: async () => {
      if (closed) return;
      closed = true;
      await browser.close().catch(() => undefined);
    },
  };
}

export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 900 },
} as const;

/** A new page at a viewport, with console errors and failed requests collected for assertions. */
export async function openPage(
  browser: pw.Browser,
  viewport: { width: number; height: number },
): Promise<{ page: pw.Page; context: pw.BrowserContext; consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  return { page, context, consoleErrors };
}
