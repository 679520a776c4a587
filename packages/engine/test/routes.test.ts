/**
 * The routes the engine serves are the route table's, and every one of them is in `/openapi.json`:
 * asked of Fastify itself, so a route registered beside the table shows up here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, routeEntries, routerPath } from '@nightjar/protocol';
import { startTestVenue, type TestVenue } from './harness.js';

describe('served routes', () => {
  let v: TestVenue;
  beforeAll(async () => {
    v = await startTestVenue();
  });
  afterAll(async () => {
    await v.close();
  });

  const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
  /** The router's form of each route the document describes, e.g. `GET /orders/:order_id`. */
  const documented = routeEntries()
    .filter(([, route]) => paths[route.path]?.[route.method] !== undefined)
    .map(([, route]) => ({ route, served: `${route.method.toUpperCase()} ${routerPath(route)}` }));

  it('are all in the OpenAPI document', () => {
    const known = new Set(documented.map((d) => d.served));
    for (const served of v.engine.servedRoutes()) {
      // Fastify answers HEAD for every GET route.
      expect(known, served).toContain(served.replace(/^HEAD /, 'GET '));
    }
  });

  it('include every documented REST route (the stream is the upgrade)', () => {
    const served = new Set(v.engine.servedRoutes());
    for (const { route, served: key } of documented)
      expect(served.has(key), key).toBe(route.upgrade !== true);
  });
});
