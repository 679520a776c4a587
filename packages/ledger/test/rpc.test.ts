import { afterEach, describe, expect, it } from 'vitest';
import {
  RpcLedgerClient,
  serveLedger,
  type Ledger,
  type LedgerEvent,
  type LedgerServer,
} from '../src/index.js';
import { startHarness } from './harness.js';
import { ledgerSuite, waitFor } from './suite.js';

const servers: LedgerServer[] = [];

/** The ledger served, and a JSON-RPC client of it (closing the client closes the server). */
async function overJsonRpc(ledger: Ledger): Promise<RpcLedgerClient> {
  const server = await serveLedger(ledger);
  servers.push(server);
  const client = new RpcLedgerClient(server.url, { devSecret: server.devSecret });
  await client.connectEvents();
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    await server.close();
  };
  return client;
}

// The same behaviour suite, through a real HTTP JSON-RPC server and WebSocket.
ledgerSuite('JSON-RPC', overJsonRpc);
// Again with the ledger in a file: the server answers the heavy reads from its reader thread.
ledgerSuite('JSON-RPC, a ledger in a file (reads on the reader thread)', overJsonRpc, { inFile: true });

describe('JSON-RPC transport', () => {
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });

  async function post(url: string, body: string, contentType = 'application/json'): Promise<unknown> {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
    return res.json();
  }

  it('answers malformed requests with JSON-RPC errors and keeps serving', async () => {
    const h = await startHarness();
    const server = await serveLedger(h.ledger);
    servers.push(server);
    expect(await post(server.url, '{not json')).toMatchObject({ error: { code: -32700 } });
    expect(await post(server.url, '[]')).toMatchObject({ error: { code: -32600 } });
    expect(await post(server.url, '{"jsonrpc":"2.0","id":1,"method":"nope"}')).toMatchObject({
      id: 1,
      error: { code: -32601 },
    });
    expect(await post(server.url, '{"jsonrpc":"2.0","id":2,"method":"getSlot","params":[1]}')).toMatchObject({
      error: { code: -32602 },
    });
    expect(
      await post(server.url, '{"jsonrpc":"2.0","id":3,"method":"getLeaves","params":{"tree_id":"x"}}'),
    ).toMatchObject({ error: { code: -32602 } });
    expect(
      await post(server.url, '{"jsonrpc":"2.0","id":4,"method":"sendTransaction","params":{}}'),
    ).toMatchObject({ error: { code: -32602 } });
    expect(await post(server.url, 'x'.repeat(2 * 1024 * 1024))).toMatchObject({ error: { code: -32600 } });
    // Only application/json is served (rpc-guard.test.ts: what a web page can send is refused).
    expect(await post(server.url, '{"jsonrpc":"2.0","id":5,"method":"getSlot"}', 'text/plain')).toMatchObject(
      { error: { code: -32600 } },
    );
    const batch = await post(
      server.url,
      '[{"jsonrpc":"2.0","id":6,"method":"getSlot"},{"jsonrpc":"2.0","id":7,"method":"getMarkets"}]',
    );
    expect(batch).toHaveLength(2);
    await h.ledger.close();
  });

  it('the event socket reconnects after the server goes away and says events may be missing', async () => {
    const h = await startHarness();
    let server = await serveLedger(h.ledger);
    const port = Number(new URL(server.url).port);
    const client = new RpcLedgerClient(server.url, { devSecret: server.devSecret });
    const events: LedgerEvent[] = [];
    client.subscribe((e) => events.push(e));
    await client.connectEvents();
    await h.ledger.advanceSlots({ slots: 1 });
    await waitFor(() => events.some((e) => e.type === 'slot'));
    await server.close();
    server = await serveLedger(h.ledger, { port });
    servers.push(server);
    await waitFor(() => events.some((e) => e.type === 'resync'));
    const before = events.length;
    await h.ledger.advanceSlots({ slots: 1 });
    await waitFor(() => events.slice(before).some((e) => e.type === 'slot'));
    await client.close();
    await h.ledger.close();
  });

  it('a client reports an unreachable ledger as unavailable', async () => {
    const client = new RpcLedgerClient('http://127.0.0.1:1/', { timeoutMs: 2000 });
    await expect(client.getSlot()).rejects.toMatchObject({ code: -32005 });
  });
});
