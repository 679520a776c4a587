/**
 * The method table (methods.ts) is the whole JSON-RPC surface: the server answers every entry under
 * its wire name, the generated client calls every entry, and docs/ledger.md lists exactly these.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LEDGER_METHODS,
  RpcLedgerClient,
  serveLedger,
  wireName,
  type LedgerMethodName,
  type LedgerServer,
} from '../src/index.js';
import { startHarness, type Harness } from './harness.js';

const names = Object.keys(LEDGER_METHODS) as LedgerMethodName[];

describe('the ledger method table', () => {
  let h: Harness;
  let server: LedgerServer;
  let client: RpcLedgerClient;

  beforeAll(async () => {
    h = await startHarness();
    server = await serveLedger(h.ledger);
    client = new RpcLedgerClient(server.url, { devSecret: server.devSecret });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await h.ledger.close();
  });

  it.each(names)('%s is implemented in process, served, and called by the RPC client', async (name) => {
    expect(typeof h.ledger[name]).toBe('function');
    expect(typeof client[name]).toBe('function');
    // Empty params: an answer or a refusal of the params, never "no such method".
    const call = client[name] as (params: object) => Promise<unknown>;
    const outcome = await call.call(client, {}).then(
      () => undefined,
      (err: { code?: number }) => err.code,
    );
    expect(outcome).not.toBe(-32601);
  });

  it('the server knows no method outside the table', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'advanceSlots', params: { slots: 1 } }),
    });
    expect(await res.json()).toMatchObject({ error: { code: -32601 } });
  });

  it('docs/ledger.md lists exactly the wire names', () => {
    const doc = readFileSync(new URL('../../../docs/ledger.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## JSON-RPC'), doc.indexOf('Reads in detail'));
    const documented = [...section.matchAll(/^\| `(\w+)`/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(names.map(wireName).sort());
  });
});
