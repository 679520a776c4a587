/**
 * Issue 30 item 4: the ledger's JSON-RPC and event socket over TLS, for a wallet on another
 * machine. Real listeners, real handshakes: the right pin reads and hears events over wss; a
 * certificate that is not the pinned one (a man in the middle) gets no request byte; the guard and
 * the read budget hold on the TLS listener too, and the plain listener stays on loopback.
 */
import { statSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  generateBootCertificate,
  LEDGER_TLS_FILE,
  MAX_RPC_RESPONSE_BYTES,
  LedgerTlsError,
  loadOrCreateLedgerIdentity,
  RpcLedgerClient,
  serveLedger,
  type LedgerEvent,
  type LedgerServer,
} from '../src/index.js';
import { Actor, startHarness, tempDir, USDC, type Harness } from './harness.js';
import { waitFor } from './wait.js';

/** One raw HTTPS POST that trusts any certificate (to probe the server's own checks). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'POST', headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const GET_SLOT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' });

describe('the ledger over TLS (issue 30 item 4)', () => {
  const servers: LedgerServer[] = [];
  const clients: RpcLedgerClient[] = [];
  const harnesses: Harness[] = [];
  const dirs: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) await s.close();
    for (const close of closers.splice(0)) await close();
    for (const h of harnesses.splice(0)) await h.ledger.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  async function served(options: Parameters<typeof serveLedger>[1] = {}) {
    const h = await startHarness();
    harnesses.push(h);
    const identity = await generateBootCertificate(['localhost', '127.0.0.1'], {
      commonName: 'nightjar-ledger',
    });
    const server = await serveLedger(h.ledger, { tls: { ...identity }, ...options });
    servers.push(server);
    return { h, server, identity };
  }

  function client(url: string, options: ConstructorParameters<typeof RpcLedgerClient>[1]) {
    const c = new RpcLedgerClient(url, options);
    clients.push(c);
    return c;
  }

  it('with the pinned certificate a client reads over https and hears events over wss', async () => {
    const { h, server, identity } = await served();
    expect(server.tlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    expect(server.tlsWsUrl).toBe(server.tlsUrl!.replace(/^https/, 'wss') + 'ws');
    expect(server.tlsSpkiSha256).toBe(identity.spkiSha256);
    expect(server.tlsCertPem).toBe(identity.certPem);
    const deposited = await h.deposit(new Actor(), USDC, 5n);
    const c = client(server.tlsUrl!, { tls: { spkiSha256: server.tlsSpkiSha256! } });
    expect(await c.getSlot()).toBe(await h.ledger.getSlot());
    const { leaves } = await c.getLeaves({ tree_id: deposited.treeId, from: 0, to: 1_000_000 });
    expect(leaves.map((l) => l.value)).toContain(deposited.commitment);
    const events: LedgerEvent[] = [];
    c.subscribe((e) => events.push(e));
    await c.connectEvents();
    await h.ledger.advanceSlots({ slots: 1 });
    await waitFor(() => events.some((e) => e.type === 'slot'));
    // Trusting the certificate as a CA works as well as pinning it.
    expect(await client(server.tlsUrl!, { tls: { ca: server.tlsCertPem! } }).getSlot()).toBe(
      await h.ledger.getSlot(),
    );
  });

  it('a certificate that is not the pinned one fails the call before the server sees a request', async () => {
    const { h, server } = await served();
    const seen = vi.spyOn(h.ledger, 'getSlot');
    const otherPin = (await generateBootCertificate()).spkiSha256;
    const wrong = client(server.tlsUrl!, { tls: { spkiSha256: otherPin } });
    await expect(wrong.getSlot()).rejects.toBeInstanceOf(LedgerTlsError);
    await expect(wrong.getSlot()).rejects.toMatchObject({
      code: -32005,
      message: expect.stringContaining('does not match the pinned SPKI SHA-256'),
    });
    await expect(wrong.connectEvents()).rejects.toMatchObject({ code: -32005 });
    expect(seen).not.toHaveBeenCalled();

    // A man in the middle: its own self-signed certificate, the real ledger's pin in the client.
    const mitmCert = await generateBootCertificate();
    let requests = 0;
    const mitm = createHttpsServer({ key: mitmCert.keyPem, cert: mitmCert.certPem }, (_req, res) => {
      requests++;
      res.end('{}');
    });
    mitm.on('upgrade', (_req, socket) => {
      requests++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => mitm.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => mitm.close(() => resolve())));
    const mitmUrl = `https://127.0.0.1:${(mitm.address() as AddressInfo).port}/`;
    const victim = client(mitmUrl, { tls: { spkiSha256: server.tlsSpkiSha256! } });
    await expect(victim.getSlot()).rejects.toBeInstanceOf(LedgerTlsError);
    await expect(victim.connectEvents()).rejects.toMatchObject({ code: -32005 });
    // Trusting the ledger's certificate as a CA refuses the impostor as well.
    await expect(client(mitmUrl, { tls: { ca: server.tlsCertPem! } }).getSlot()).rejects.toBeInstanceOf(
      LedgerTlsError,
    );
    expect(requests).toBe(0);
  });

  it('a node that answers more than MAX_RPC_RESPONSE_BYTES is cut off (over https and over http)', async () => {
    // A hostile node streams an endless answer: the client stops reading past the cap.
    let sent = 0;
    const flood = (_req: IncomingMessage, res: ServerResponse) => {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (sent < 2 * MAX_RPC_RESPONSE_BYTES && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    };
    const cert = await generateBootCertificate();
    const tlsNode = createHttpsServer({ key: cert.keyPem, cert: cert.certPem }, flood);
    const plainNode = createHttpServer(flood);
    for (const node of [tlsNode, plainNode]) {
      await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => node.close(() => resolve())));
    }
    const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
    const overTls = client(`https://127.0.0.1:${port(tlsNode)}/`, { tls: { spkiSha256: cert.spkiSha256 } });
    await expect(overTls.getSlot()).rejects.toMatchObject({
      code: -32005,
      message: expect.stringContaining(`over ${MAX_RPC_RESPONSE_BYTES} bytes`),
    });
    sent = 0;
    const overHttp = client(`http://127.0.0.1:${port(plainNode)}/`, {});
    await expect(overHttp.getSlot()).rejects.toMatchObject({
      code: -32005,
      message: expect.stringContaining(`over ${MAX_RPC_RESPONSE_BYTES} bytes`),
    });
  });

  it('the Host guard and the per-address read budget (shared with the plain listener) hold over TLS', async () => {
    const { server } = await served({ rateLimit: { capacity: 3, refillPerSecond: 0.001 } });
    const json = { 'content-type': 'application/json' };
    const foreign = await rawPost(server.tlsUrl!, { ...json, host: 'evil.example' }, GET_SLOT);
    expect(foreign.status).toBe(403);
    const plain = new RpcLedgerClient(server.url);
    clients.push(plain);
    await plain.getSlot();
    await plain.getSlot();
    expect(JSON.parse((await rawPost(server.tlsUrl!, json, GET_SLOT)).text)).toHaveProperty('result');
    // Three reads spent across both listeners: the fourth, over TLS, is refused.
    expect(JSON.parse((await rawPost(server.tlsUrl!, json, GET_SLOT)).text)).toMatchObject({
      error: { code: -32008 },
    });
  });

  it('with TLS on every interface, the plain listener stays on loopback', async () => {
    const { server } = await served({ tls: { ...(await generateBootCertificate()), host: '0.0.0.0' } });
    expect(server.bound.plain.address).toBe('127.0.0.1');
    expect(server.bound.tls?.address).toBe('0.0.0.0');
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    const c = client(server.tlsUrl!, {
      tls: { spkiSha256: server.tlsSpkiSha256! },
    });
    expect(typeof (await c.getSlot())).toBe('number');
  });

  it('tls options need an https URL, and a pin is 64 hex digits', () => {
    expect(() => new RpcLedgerClient('http://127.0.0.1:1/', { tls: { spkiSha256: 'a'.repeat(64) } })).toThrow(
      /https/,
    );
    expect(() => new RpcLedgerClient('https://127.0.0.1:1/', { tls: { spkiSha256: 'zz' } })).toThrow(
      /64 hex/,
    );
  });
});

describe("the ledger's TLS identity persists in its data directory", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a restart keeps the pin; the key file is 0600 in a 0700 directory; an expiring one is replaced', async () => {
    const dataDir = join(tempDir(), 'ledger');
    dirs.push(dataDir);
    const first = await loadOrCreateLedgerIdentity(dataDir);
    const again = await loadOrCreateLedgerIdentity(dataDir);
    expect(again).toEqual(first);
    expect(statSync(join(dataDir, LEDGER_TLS_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    // Served twice from the same directory (a restart): the same pin.
    const h = await startHarness();
    const a = await serveLedger(h.ledger, { tls: await loadOrCreateLedgerIdentity(dataDir) });
    await a.close();
    const b = await serveLedger(h.ledger, { tls: await loadOrCreateLedgerIdentity(dataDir) });
    await b.close();
    await h.ledger.close();
    expect(b.tlsSpkiSha256).toBe(a.tlsSpkiSha256);
    expect(a.tlsSpkiSha256).toBe(first.spkiSha256);
    // Valid a year: a start past that makes a new one.
    const later = await loadOrCreateLedgerIdentity(dataDir, undefined, Date.now() + 366 * 24 * 3600 * 1000);
    expect(later.spkiSha256).not.toBe(first.spkiSha256);
  });
});
