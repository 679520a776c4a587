/**
 * The verified transport against real engines: it passes on a genuine engine, refuses a
 * man-in-the-middle TLS proxy before anything secret leaves, never lets a request out before its
 * socket is verified (the engine's own request log is the witness), re-verifies a new socket and
 * a new boot, and gates the WebSocket upgrade the same way.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { signerSetSha256, stringifyJson } from '@nightjar/protocol';
import {
  AttestationService,
  generateBootCertificate,
  SimulatedPlatform,
  startEngine,
} from '../../engine/src/index.js';
import { createTransport, type SignerSetSource, type VerifyTransportReturnType } from '../src/index.js';
import {
  devCircuitKeys,
  expectRejection,
  FAST_ARGON2,
  pins,
  requestLog,
  startTestVenue,
  stubVerifyInputProof,
  type TestVenue,
} from './helpers.js';
import type { NightjarError } from '../src/index.js';
import {
  NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH,
  NIGHTJAR_ERROR__ATTESTATION_SPKI,
  TRANSPORT_CHECK,
  isNightjarError,
} from '../src/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('verified transport against a genuine engine', () => {
  let v: TestVenue;
  const log = requestLog();
  beforeAll(async () => {
    v = await startTestVenue({ logger: log.logger });
  });
  afterAll(async () => {
    await v.close();
  });

  const onPort = (port: number) => log.requests.filter((r) => r.port === port);

  it('verifies (a)–(d) and then carries requests on that socket', async () => {
    const reports: VerifyTransportReturnType[] = [];
    const t = createTransport({ url: v.engine.url, ...pins(v), onVerified: (r) => reports.push(r) });
    try {
      const info = await t.request<{ boot_session_id: string }>('/info');
      expect(info.status).toBe(200);
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({
        bootSessionId: v.engine.bootSessionId,
        tlsSpkiSha256: v.engine.certificate.spkiSha256,
        composeHash: v.engine.attestation.identity.compose_hash,
        tcbStatus: 'UpToDate',
        signerSetSha256: v.engine.context.chain.signerSetSha256,
      });
      // Same socket, verified once.
      expect((await t.request('/time')).status).toBe(200);
      expect(reports).toHaveLength(1);
    } finally {
      t.close();
    }
  });

  it('race: requests made before verification finishes leave only after it, on the verified socket', async () => {
    const slowLedger: SignerSetSource = {
      getVault: async (p) => {
        await sleep(300);
        return v.ledger.getVault(p);
      },
    };
    let verifiedAt = 0;
    const t = createTransport({
      url: v.engine.url,
      ...pins(v),
      ledger: slowLedger,
      onVerified: () => (verifiedAt = Date.now()),
    });
    try {
      const startedAt = Date.now();
      const results = await Promise.all(Array.from({ length: 5 }, () => t.request('/time')));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const attestations = log.requests.filter(
        (r) => r.url.startsWith('/transport-attestation') && r.timeMs >= startedAt,
      );
      expect(attestations).toHaveLength(1);
      const seen = onPort(attestations[0]!.port);
      expect(seen.map((r) => r.url.split('?')[0])).toEqual([
        '/transport-attestation',
        '/info',
        '/time',
        '/time',
        '/time',
        '/time',
        '/time',
      ]);
      for (const r of seen.slice(2)) {
        expect(r.timeMs).toBeGreaterThanOrEqual(verifiedAt);
        expect(r.timeMs).toBeGreaterThanOrEqual(startedAt + 300);
      }
    } finally {
      t.close();
    }
  });

  it('a new socket is verified again before it carries anything', async () => {
    let verifications = 0;
    const t = createTransport({ url: v.engine.url, ...pins(v), onVerified: () => verifications++ });
    try {
      // The server closes this connection after answering.
      expect((await t.request('/time', { headers: { connection: 'close' } })).status).toBe(200);
      await sleep(50);
      const before = log.requests.length;
      expect((await t.request('/time')).status).toBe(200);
      expect(verifications).toBe(2);
      const after = log.requests.slice(before).map((r) => r.url.split('?')[0]);
      expect(after).toEqual(['/transport-attestation', '/info', '/time']);
      expect(new Set(log.requests.slice(before).map((r) => r.port)).size).toBe(1);
    } finally {
      t.close();
    }
  });

  it('gates the WebSocket upgrade: it is sent on its socket only after that socket is verified', async () => {
    const t = createTransport({ url: v.engine.url, ...pins(v) });
    try {
      const before = log.requests.length;
      const { ws, verification } = await t.openWebSocket('/v1/stream');
      // The evidence was fetched over the socket that then carried the upgrade: the stream answers on it.
      const seen = log.requests.slice(before);
      expect(seen.map((r) => r.url.split('?')[0])).toEqual(['/transport-attestation', '/info']);
      expect(new Set(seen.map((r) => r.port)).size).toBe(1);
      expect(verification.bootSessionId).toBe(v.engine.bootSessionId);
      const reply = new Promise<Record<string, unknown>>((resolve) =>
        ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)),
      );
      ws.send(JSON.stringify({ op: 'ping', request_id: 'p1' }));
      expect(await reply).toMatchObject({ op: 'pong', seq: 1, request_id: 'p1' });
      ws.close();
    } finally {
      t.close();
    }
  });
});

describe('a man-in-the-middle TLS proxy with its own certificate', () => {
  it('is refused at check (b) before any credential or order is sent', async () => {
    const v = await startTestVenue();
    const proxyCert = await generateBootCertificate();
    const plaintext: string[] = [];
    const proxy = createTlsServer({ key: proxyCert.keyPem, cert: proxyCert.certPem }, (client) => {
      // It terminates TLS itself and relays to the genuine engine, reading everything.
      const upstream: TLSSocket = connect({
        host: '127.0.0.1',
        port: v.engine.port,
        ca: v.engine.certificate.certPem,
      });
      client.on('data', (d: Buffer) => plaintext.push(d.toString('latin1')));
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end);
      upstream.on('error', end);
      client.on('close', end);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as { port: number }).port;
    const t = createTransport({ url: `https://127.0.0.1:${port}`, ...pins(v) });
    try {
      const err = await expectRejection(
        t.request('/orders', {
          token: 'the-secret-token',
          body: { symbol: 'SOL-USDC', secret_opening: 'x' },
        }),
      );
      expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_SPKI)).toBe(true);
      expect(TRANSPORT_CHECK[(err as NightjarError<typeof NIGHTJAR_ERROR__ATTESTATION_SPKI>).code]).toBe('b');
      const seen = plaintext.join('');
      // The proxy relayed genuine evidence (checks (a) passed) but saw nothing a client must protect.
      expect(seen).toMatch(/^GET \/transport-attestation\?nonce=[0-9a-f]{64} HTTP\/1\.1/);
      expect(seen).not.toMatch(/the-secret-token|authorization|secret_opening|POST/i);
    } finally {
      t.close();
      await new Promise((r) => proxy.close(r));
      await v.close();
    }
  });
});

describe('a new boot session', () => {
  it('is verified again: the restarted engine’s socket carries nothing until its new evidence passes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'nightjar-sdk-boot-'));
    const v = await startTestVenue({ dataDir });
    const reports: VerifyTransportReturnType[] = [];
    const t = createTransport({ url: v.engine.url, ...pins(v), onVerified: (r) => reports.push(r) });
    let second: Awaited<ReturnType<typeof startEngine>> | undefined;
    try {
      expect((await t.request('/time')).status).toBe(200);
      await v.engine.close();
      second = await startEngine({
        ledger: v.ledger,
        port: v.engine.port,
        dataDir,
        dev: true,
        hasher: FAST_ARGON2,
        verifyInputProof: stubVerifyInputProof,
        circuitKeys: await devCircuitKeys(),
      });
      await sleep(50);
      // Same root (kept in the data directory), new boot session, new TLS key.
      const info = await t.request<{ boot_session_id: string }>('/info');
      expect(info.body.boot_session_id).toBe(second.bootSessionId);
      expect(reports.map((r) => r.bootSessionId)).toEqual([v.engine.bootSessionId, second.bootSessionId]);
      expect(reports[1]!.tlsSpkiSha256).toBe(second.certificate.spkiSha256);
    } finally {
      t.close();
      await second?.close();
      v.client.close();
      await v.ledger.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('WebSocket over a verified socket (a stand-in engine with a stream endpoint)', () => {
  const composeHash = 'ab'.repeat(32);
  const noKeys: SignerSetSource = { getVault: async () => ({ tee_keys: [] }) };

  async function standIn() {
    const cert = await generateBootCertificate();
    const platform = await SimulatedPlatform.open({ dir: undefined, composeHash });
    const boot = randomBytes(32).toString('hex');
    const service = new AttestationService({
      platform,
      bootSessionId: boot,
      tlsSpkiSha256: cert.spkiSha256,
      signerSetSha256: () => signerSetSha256([]),
    });
    const seen: string[] = [];
    const server = createHttpsServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
      seen.push(`GET ${req.url!.split('?')[0]}`);
      const url = new URL(req.url!, 'https://x');
      const reply = (body: unknown) =>
        res.setHeader('content-type', 'application/json').end(stringifyJson(body));
      if (url.pathname === '/transport-attestation')
        void service.transportAttestation(Buffer.from(url.searchParams.get('nonce')!, 'hex')).then(reply);
      else if (url.pathname === '/info') reply({ boot_session_id: boot });
      else res.writeHead(404).end();
    });
    const wss = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req, socket, head) => {
      seen.push(`UPGRADE ${req.url}`);
      wss.handleUpgrade(req, socket, head, (ws) =>
        ws.on('message', (m: Buffer) => {
          seen.push(`FRAME ${m.toString()}`);
          ws.send(m);
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    return {
      url,
      platform,
      seen,
      close: async () => {
        wss.close();
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      },
    };
  }

  it('upgrades only after verification, and frames flow on that socket', async () => {
    const s = await standIn();
    const t = createTransport({ url: s.url, rootCaDer: s.platform.rootCa.der, composeHash, ledger: noKeys });
    try {
      const { ws, verification } = await t.openWebSocket('/v1/stream');
      expect(verification.composeHash).toBe(composeHash);
      ws.send('{"op":"ping"}');
      const echo = await new Promise<Buffer>((r) => ws.once('message', (data: Buffer) => r(data)));
      expect(echo.toString()).toBe('{"op":"ping"}');
      ws.close();
      expect(s.seen).toEqual([
        'GET /transport-attestation',
        'GET /info',
        'UPGRADE /v1/stream',
        'FRAME {"op":"ping"}',
      ]);
    } finally {
      t.close();
      await s.close();
    }
  });

  it('never sends the upgrade when verification fails', async () => {
    const s = await standIn();
    const t = createTransport({
      url: s.url,
      rootCaDer: s.platform.rootCa.der,
      composeHash: 'cd'.repeat(32),
      ledger: noKeys,
    });
    try {
      const err = await expectRejection(t.openWebSocket('/v1/stream'));
      expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH)).toBe(true);
      expect(s.seen).toEqual(['GET /transport-attestation']);
    } finally {
      t.close();
      await s.close();
    }
  });
});

describe('an engine on the dstack platform (fake guest agent)', () => {
  it('verifies with collateral the client fetches itself (on a real CVM: from a PCCS, under Intel’s root)', async () => {
    const { DstackPlatform } = await import('../../engine/src/index.js');
    const { startFakeDstackAgent } = await import('@nightjar/testkit/fixtures');
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-sdk-dstack-'));
    const td = await SimulatedPlatform.open({ dir: undefined, composeHash: 'ef'.repeat(32) });
    const agent = await startFakeDstackAgent(join(dir, 'dstack.sock'), td);
    const v = await startTestVenue({
      attestation: { platform: await DstackPlatform.open({ endpoint: join(dir, 'dstack.sock') }) },
    });
    const fetched: Uint8Array[] = [];
    const t = createTransport({
      url: v.engine.url,
      rootCaDer: td.rootCa.der,
      composeHash: 'ef'.repeat(32),
      ledger: v.ledger,
      fetchCollateral: async (quote) => {
        fetched.push(quote);
        return td.currentCollateral();
      },
    });
    try {
      expect((await t.verify()).composeHash).toBe('ef'.repeat(32));
      expect(fetched).toHaveLength(1);
    } finally {
      t.close();
      await v.close();
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
