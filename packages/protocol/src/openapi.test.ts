import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { placeOrderCodec } from './bodies.js';
import { documentedRoutes, openApiDocument, openApiJson } from './openapi.js';
import { routeEntries, routeKey } from './routes.js';

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  const text = openApiJson();
  const doc = JSON.parse(text) as Record<string, unknown> & { info: { version: string }; openapi: string };

  it('passes the OpenAPI 3.1 schema lint', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is version 4.1.0 of OpenAPI 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('4.1.0');
  });

  it('describes every route of the table, once, and nothing else', () => {
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    const described = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const table = routeEntries().map(([, route]) => routeKey(route));
    expect(new Set(table).size).toBe(table.length);
    expect([...described].sort()).toEqual([...table].sort());
    expect(documentedRoutes()).toEqual(table);
  });

  it('resolves every $ref', () => {
    for (const ref of collectRefs(doc)) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('uses the very schema the place-order validator parses with', () => {
    const schemas = (openApiDocument().components as { schemas: Record<string, unknown> }).schemas;
    expect(schemas.PlaceOrderRequest).toBe(placeOrderCodec.schema);
  });

  it('keeps u64 bounds exact in the served JSON', () => {
    expect(text).toContain('"maximum":18446744073709551615');
    expect(text).not.toContain('18446744073709552000');
  });

  it('marks public routes as needing no token and others as bearer', () => {
    const paths = doc.paths as Record<string, Record<string, { security?: unknown[] }>>;
    expect(paths['/health']!.get!.security).toEqual([]);
    expect(paths['/tree/root']!.get!.security).toEqual([]);
    expect(paths['/tree/inclusion']!.get!.security).toBeUndefined();
    expect(paths['/orders']!.post!.security).toBeUndefined();
  });
});
