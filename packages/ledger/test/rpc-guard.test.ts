/**
 * Issue 28 item 10: a web page (or a DNS name rebound to 127.0.0.1) must not reach the dev ledger's
 * JSON-RPC. Every attack goes over a real socket to a real server, with the headers a browser or
 * an attacker would send; afterwards the faults must be untouched (dev_setFaults never applied).
 */
import { request } from 'node:http';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  NO_FAULTS,
  DEV_SECRET_HEADER,
  Ledger,
  RpcLedgerClient,
  serveLedger,
  type LedgerServer,
} from '../src/index.js';
import { DEV_SECRET_FILE } from '../src/dev-secret.js';
import { Actor, startHarness, tempDir, TestVerifier, USDC, type Harness } from './harness.js';

interface Answer {
  status: number;
  body: { id?: unknown; result?: unknown; error?: { code: number; message: string } };
  headers: Record<string, string | string[] | undefined>;
}

/** One raw HTTP request (node:http: any Host, Origin or Content-Type, as an attacker sends them). */
function raw(url: string, headers: Record<string, string>, body?: string, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let parsed: Answer['body'] = {};
        try {
          parsed = JSON.parse(text) as Answer['body'];
        } catch {
          // a refusal without a body (a preflight) keeps {}
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const OUTAGE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'dev_setFaults', params: { outage: true } });

describe('the JSON-RPC refuses what a browser or a stranger sends (issue 28 item 10)', () => {
  const servers: LedgerServer[] = [];
  const harnesses: Harness[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    for (const h of harnesses.splice(0)) await h.ledger.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  async function served(options: Parameters<typeof serveLedger>[1] = {}) {
    const h = await startHarness();
    harnesses.push(h);
    const server = await serveLedger(h.ledger, options);
    servers.push(server);
    return { h, server, secret: server.devSecret! };
  }

  it('a text/plain POST, a foreign Host, a foreign Origin and a missing or wrong secret never set faults', async () => {
    const { h, server, secret } = await served();
    const json = { 'content-type': 'application/json' };
    const attempts: [string, Record<string, string>, number][] = [
      [
        'text/plain, even with the secret',
        { 'content-type': 'text/plain', [DEV_SECRET_HEADER]: secret },
        415,
      ],
      [
        'Host evil.example (DNS rebinding)',
        { ...json, host: 'evil.example:8899', [DEV_SECRET_HEADER]: secret },
        403,
      ],
      [
        'Origin https://evil.example',
        { ...json, origin: 'https://evil.example', [DEV_SECRET_HEADER]: secret },
        403,
      ],
      ['Origin null (a sandboxed page)', { ...json, origin: 'null', [DEV_SECRET_HEADER]: secret }, 403],
    ];
    for (const [what, headers, status] of attempts) {
      const answer = await raw(server.url, headers, OUTAGE);
      expect({ what, status: answer.status, code: answer.body.error?.code }).toEqual({
        what,
        status,
        code: -32600,
      });
    }
    const noSecret = await raw(server.url, json, OUTAGE);
    expect(noSecret.body.error).toMatchObject({
      code: -32006,
      message: expect.stringContaining(DEV_SECRET_HEADER),
    });
    const wrongSecret = await raw(server.url, { ...json, [DEV_SECRET_HEADER]: 'ab'.repeat(32) }, OUTAGE);
    expect(wrongSecret.body.error).toMatchObject({ code: -32006 });
    // The secret never comes back in a refusal.
    expect(JSON.stringify(wrongSecret.body)).not.toContain(secret);
    expect(h.ledger.getFaults()).toEqual(NO_FAULTS);

    // The faucet is dev-only too: refused without the secret, nothing credited.
    const stranger = new Actor();
    const airdrop = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'requestAirdrop',
      params: { owner: stranger.address, mint: USDC, amount: '1000' },
    });
    expect((await raw(server.url, json, airdrop)).body.error).toMatchObject({ code: -32006 });
    expect(await h.ledger.getBalance({ owner: stranger.address, mint: USDC })).toBe('0');

    // A client given the secret is served.
    const client = new RpcLedgerClient(server.url, { devSecret: secret });
    await expect(client.setFaults({ rejectRate: 0.5 })).resolves.toMatchObject({ rejectRate: 0.5 });
    expect(h.ledger.getFaults().rejectRate).toBe(0.5);
    await client.requestAirdrop({ owner: stranger.address, mint: USDC, amount: '1000' });
    expect(await h.ledger.getBalance({ owner: stranger.address, mint: USDC })).toBe('1000');
    // Without it, the same client class is refused with -32006.
    const plain = new RpcLedgerClient(server.url);
    await expect(plain.advanceSlots({ slots: 1 })).rejects.toMatchObject({ code: -32006 });
    await expect(plain.getSlot()).resolves.toEqual(expect.any(Number));
    await client.close();
    await plain.close();
  });

  it('a browser-style simple request (no preflight) cannot reach it, and a preflight is not granted', async () => {
    const { h, server } = await served();
    // What fetch(url, {method: 'POST', mode: 'no-cors', body}) and a posted <form> send from a page.
    const page = { origin: 'http://evil.example', host: new URL(server.url).host };
    for (const type of [
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const answer = await raw(server.url, { ...page, 'content-type': type }, OUTAGE);
      expect(answer.status).toBe(403);
    }
    // Even same-host page scripts (a page served from the ledger's own origin does not exist) are
    // refused the simple request on its content type alone.
    const noOrigin = await raw(server.url, { 'content-type': 'text/plain;charset=UTF-8' }, OUTAGE);
    expect(noOrigin.status).toBe(415);
    // A JSON request from a page needs a preflight: no CORS header ever grants it.
    const preflight = await raw(
      server.url,
      {
        ...page,
        'access-control-request-method': 'POST',
        'access-control-request-headers': `content-type, ${DEV_SECRET_HEADER}`,
      },
      undefined,
      'OPTIONS',
    );
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(h.ledger.getFaults()).toEqual(NO_FAULTS);
  });

  it('the event socket refuses a foreign Origin or Host and serves a local client', async () => {
    const { server } = await served();
    const opens = (headers: Record<string, string>) =>
      new Promise<boolean>((resolve) => {
        const ws = new WebSocket(server.wsUrl, { headers });
        ws.once('open', () => {
          ws.terminate();
          resolve(true);
        });
        ws.once('error', () => resolve(false));
      });
    expect(await opens({ origin: 'https://evil.example' })).toBe(false);
    expect(await opens({ host: 'evil.example' })).toBe(false);
    expect(await opens({})).toBe(true);
  });

  it('configured hosts and origins are served; the bound address is a host by default', async () => {
    const { server } = await served({
      allowedHosts: ['ledger.internal'],
      allowedOrigins: ['https://explorer.example'],
    });
    const getSlot = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' });
    const json = { 'content-type': 'application/json' };
    for (const headers of [
      { ...json, host: 'ledger.internal:8899' },
      { ...json, host: 'localhost' },
      { ...json, host: '[::1]:1' },
      { ...json, origin: 'https://explorer.example' },
    ]) {
      expect((await raw(server.url, headers, getSlot)).body).toMatchObject({ result: expect.any(Number) });
    }
    expect((await raw(server.url, { ...json, host: 'ledger.internal.evil.example' }, getSlot)).status).toBe(
      403,
    );
    expect(
      (await raw(server.url, { ...json, origin: 'https://explorer.example.evil' }, getSlot)).status,
    ).toBe(403);
  });

  it('a ledger with a data directory keeps its dev secret there (0600) across restarts; --no-dev has none', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const open = (dev: boolean) =>
      Ledger.open({
        dataDir: dir,
        dev,
        clock: { mode: 'manual' },
        verifier: new TestVerifier(),
        ...(dev ? {} : { genesis: { admin: new Actor().address, fee_owner_commitment: '00'.repeat(32) } }),
      });
    const first = open(true);
    const file = join(dir, DEV_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.devSecret);
    expect(first.devSecret).toMatch(/^[0-9a-f]{64}$/);
    await first.close();
    const again = open(true);
    expect(again.devSecret).toBe(first.devSecret);
    await again.close();
    const production = open(false);
    expect(production.devSecret).toBeUndefined();
    await production.close();
  });
});
