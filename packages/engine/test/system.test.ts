import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '@nightjar/circuits';
import { infoResponseCodec, openApiDocument, routeEntries, routerPath } from '@nightjar/protocol';
import { startEngine } from '../src/index.js';
import { devCircuitKeys, login, startTestVenue, type TestVenue } from '@nightjar/testkit';

describe('system routes over HTTPS', () => {
  let v: TestVenue;
  beforeAll(async () => {
    v = await startTestVenue();
  });
  afterAll(async () => {
    await v.close();
  });

  it('health, time, info and status answer with x-request-id', async () => {
    const health = await v.client.send('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });
    expect(health.body.uptime_ms).toBeGreaterThanOrEqual(0);
    expect(health.headers['x-request-id']).toMatch(/^[0-9a-f]{24}$/);

    const time = await v.client.send('/time');
    expect(time.body.slot).toBe(await v.ledger.getSlot());
    expect(Number(time.body.unix_ms)).toBeGreaterThan(1.7e12);

    const info = await v.client.send('/info');
    expect(info.body.boot_session_id).toBe(v.engine.bootSessionId);
    expect(info.body.boot_session_id).toMatch(/^[0-9a-f]{64}$/);
    expect(info.body).toMatchObject({ api_version: '4.1.0', order_domain: 'venue-order-v5', num_trees: 4 });

    // The verification keys' SHA-256, exactly as the committed manifest pins the files (dev ceremony).
    const files = (await readManifest()).files;
    expect(info.body.circuit_keys).toEqual({
      dev_only: true,
      valid_input_vkey_sha256: files['valid_input_v2.vkey.json']!.sha256,
      valid_spend_vkey_sha256: files['valid_spend_v2.vkey.json']!.sha256,
      valid_lock_vkey_sha256: files['valid_lock.vkey.json']!.sha256,
      valid_match_vkey_sha256: files['valid_match_v2.vkey.json']!.sha256,
      valid_join_split_vkey_sha256: files['valid_join_split_v2.vkey.json']!.sha256,
    });
    expect(infoResponseCodec.parse(info.body).circuit_keys.dev_only).toBe(true);
    const doc = openApiDocument() as { components: { schemas: Record<string, { properties: object }> } };
    expect(doc.components.schemas.Info!.properties).toHaveProperty('circuit_keys');

    const status = await v.client.send('/system/status');
    expect(status.body).toMatchObject({
      matching: 'running',
      // The settlement key is not registered on this ledger: settlement waits.
      settlement: 'degraded',
      ledger: 'connected',
      trading: 'open',
      draining: false,
    });
  });

  it('a production engine (dev: false) refuses dev-ceremony circuit keys before it serves', async () => {
    const keys = await devCircuitKeys();
    expect(keys.dev_only).toBe(true);
    await expect(
      startEngine({ ledger: v.ledger, port: 0, verifyInputProof: async () => true, circuitKeys: keys }),
    ).rejects.toThrow(/refuses dev-ceremony circuit keys/);
  });

  it('lists instruments and 404s an unknown one', async () => {
    const list = await v.client.send('/instruments');
    // Lists are returned directly: a bare array, not an object wrapping one.
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((i: { symbol: string }) => i.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
    expect(list.body[0]).toMatchObject({
      price_scale: 1_000_000_000,
      tick_size: 1000,
      fee_bps: 10,
    });
    const one = await v.client.send('/instruments/SOL-USDC');
    expect(one.body.market_id).toBe(list.body[0].market_id);
    const missing = await v.client.send('/instruments/DOGE-USDC');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 1301, message: 'no such instrument' });
    expect(missing.headers['x-request-id']).toBeDefined();
  });

  it('serves the OpenAPI document exactly', async () => {
    const r = await v.client.send('/openapi.json');
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(r.text).toContain('"maximum":18446744073709551615');
    expect(JSON.parse(r.text).info.version).toBe((openApiDocument().info as { version: string }).version);
  });

  it('answers unknown routes, malformed JSON, wrong content types and oversized bodies with the envelope', async () => {
    const unknown = await v.client.send('/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(1301);
    expect(unknown.headers['x-request-id']).toBeDefined();
    const method = await v.client.send('/health', { method: 'DELETE' });
    expect([method.status, method.body.code]).toEqual([404, 1301]);
    const { token } = await v.newAccount();
    const bad = await v.client.send('/orders', { token, rawBody: '{"symbol":' });
    expect([bad.status, bad.body.code]).toEqual([400, 1001]);
    const type = await v.client.send('/orders', {
      token,
      rawBody: 'symbol=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect([type.status, type.body.code]).toEqual([400, 1000]);
    const big = await v.client.send('/orders', {
      token,
      rawBody: JSON.stringify({ pad: 'x'.repeat(20_000) }),
    });
    expect([big.status, big.body.code]).toEqual([400, 1000]);
    expect(big.headers['x-request-id']).toBeDefined();
  });

  it('transparency is public; settlement metrics are admin-only; unknown batches are 404', async () => {
    const t = await v.client.send('/transparency');
    expect(t.status).toBe(200);
    expect(t.body.engine.boot_session_id).toBe(v.engine.bootSessionId);
    expect(t.body.shards).toHaveLength(4);
    expect(t.body.orders).toEqual({ resting: 0, pending_settlement: 0 });
    const { token } = await v.newAccount();
    expect((await v.client.send('/admin/metrics/settlement', { token })).body.code).toBe(1150);
    const adminToken = await login(v.client, v.admin);
    const metrics = await v.client.send('/admin/metrics/settlement', { token: adminToken });
    expect(metrics.body).toMatchObject({ settlement: 'degraded', pending_batches: 0 });
    expect((await v.client.send('/settlement/status/7', { token })).status).toBe(404);
    expect((await v.client.send('/settlement/status/7')).status).toBe(401);
    expect((await v.client.send('/settlement/status/x', { token })).body.code).toBe(1001);
    expect((await v.client.send('/evidences/anything')).status).toBe(404);
  });

  // Asked of Fastify itself (onRoute), so a route registered beside the route table shows up here.
  const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
  /** The router's form of each route the document describes, e.g. `GET /orders/:order_id`. */
  const documented = routeEntries()
    .filter(([, route]) => paths[route.path]?.[route.method] !== undefined)
    .map(([, route]) => ({ route, served: `${route.method.toUpperCase()} ${routerPath(route)}` }));

  it('serves only routes the OpenAPI document describes', () => {
    const known = new Set(documented.map((d) => d.served));
    for (const served of v.engine.servedRoutes()) {
      // Fastify answers HEAD for every GET route.
      expect(known, served).toContain(served.replace(/^HEAD /, 'GET '));
    }
  });

  it('serves every documented REST route (the stream is the upgrade)', () => {
    const served = new Set(v.engine.servedRoutes());
    for (const { route, served: key } of documented)
      expect(served.has(key), key).toBe(route.upgrade !== true);
  });
});
