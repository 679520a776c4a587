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

/**
 * The barrier that makes "the page sent nothing" deterministic, without a sleep: resolves once a
 * GET the page issues now has its response. Every control's handler (Place, Deposit, Withdraw,
 * Modify, Cancel) calls the page's api layer (web/api.ts) before its first `await` (its checks are
 * synchronous), and the api layer calls `fetch` (or refuses, counting the refusal) before its own
 * first `await`. So whatever a click or submit dispatched before this call would have sent is
 * issued before this GET, the browser reports requests (`page.on('request')`) in the order they
 * are issued, and by the time this GET is answered a listener has seen every earlier one.
 * (The ticket's preview is the one send behind a timer; it needs valid fields, which a disabled
 * ticket cannot get. Place's first send is a fresh preview; the order itself follows its answer,
 * so a test that asserts an order was held back waits for what the page shows then.)
 */
export async function sendsSettled(page: pw.Page): Promise<void> {
  const status = await page.evaluate(
    "fetch('/api/v1/venue', { credentials: 'same-origin' }).then((r) => r.status)",
  );
  if (status !== 200) throw new Error(`the barrier GET /api/v1/venue answered ${String(status)}`);
}

/**
 * Types `value` into input `#id` even when it is disabled (as a script on the page could: a
 * disabled control ignores the user, not `dispatchEvent`), then submits its form directly
 * (`requestSubmit` is not stopped by a disabled fieldset): the form's handler runs.
 */
export async function submitAnyway(page: pw.Page, id: string, value: string): Promise<void> {
  await setAnyway(page, id, value);
  // A separate evaluate: the page has re-rendered with the new value by then.
  await page.evaluate(`document.getElementById(${JSON.stringify(id)}).form.requestSubmit()`);
}

/** Sets input `id` to `value` as typing would, even when it is disabled (a script's doing). */
export async function setAnyway(page: pw.Page, id: string, value: string): Promise<void> {
  await page.evaluate(`(() => {
    const input = document.getElementById(${JSON.stringify(id)});
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(value)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
  })()`);
}

/** How many sends the page's api layer refused (`<html data-refused-sends>`). */
export async function refusedSends(page: pw.Page): Promise<number> {
  return Number((await page.locator('html').getAttribute('data-refused-sends')) ?? 0);
}
