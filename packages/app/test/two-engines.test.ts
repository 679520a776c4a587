/**
 * Issue 33 item 3, the app: markets on two engines of one venue. The app verifies each engine it
 * uses (its own at connect, the other when its stream or a market of it is first used) and lists
 * each in GET /api/v1/venue; another engine that fails verification fails only its markets: the
 * app keeps trading on its own engine and cancel-all names the other as unreachable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppServer } from '../src/index.js';
import type { CancelAllResult, VenueView } from '../src/api-types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { bot, startTestApp, type AppVenue, type TestVenue } from './app-harness.js';

interface TwoEngines {
  a: TestVenue;
  b: { engine: { url: string } };
  close(): Promise<void>;
}
const startTwo = async (composeHashB?: string): Promise<TwoEngines> => {
  const kit = (await import('@nightjar/testkit')) as unknown as {
    startTwoEngineVenue(o: { composeHashB?: string }): Promise<TwoEngines>;
  };
  return kit.startTwoEngineVenue(composeHashB ? { composeHashB } : {});
};

/** Polls the app's venue view until `ok` holds (the stream's engines connect after the app's own). */
async function venueUntil(app: AppServer, ok: (v: VenueView) => boolean): Promise<VenueView> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const r = await bot<VenueView>(app, 'GET', '/venue');
    if (r.status === 200 && ok(r.body)) return r.body;
    if (Date.now() > deadline) throw new Error(`venue view never matched: ${r.text}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function appOn(two: TwoEngines): Promise<AppServer> {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-app-two-'));
  const venue = { v: two.a, requests: [], dir } as unknown as AppVenue;
  const app = await startTestApp(venue, 'two');
  cleanup.push(async () => {
    await app.close();
    await two.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return app;
}

describe('the app on a venue with two engines', () => {
  it('lists the other engine it verified', async () => {
    const two = await startTwo();
    const app = await appOn(two);
    const view = await venueUntil(app, (v) => (v.engines ?? []).length > 0);
    expect(view.attestation).toBe('verified');
    expect(view.engines).toEqual([
      expect.objectContaining({ base_url: two.b.engine.url, attestation: 'verified' }),
    ]);
  });

  it('another engine failing verification fails only its markets: the app keeps its own', async () => {
    const two = await startTwo('ab'.repeat(32));
    const app = await appOn(two);
    const view = await venueUntil(app, (v) => (v.engines ?? []).length > 0);
    expect(view.attestation).toBe('verified');
    expect(view.engines).toEqual([
      expect.objectContaining({ base_url: two.b.engine.url, attestation: 'failed' }),
    ]);
    const r = await bot<CancelAllResult>(app, 'POST', '/orders/cancel-all', {});
    expect(r.status).toBe(200);
    expect(r.body.cancelled).toEqual([]);
    expect(r.body.unreachable).toEqual([
      expect.objectContaining({ engine: two.b.engine.url, code: 'ATTESTATION_FAILED' }),
    ]);
    expect((await bot<VenueView>(app, 'GET', '/venue')).body.attestation).toBe('verified');
  });
});
