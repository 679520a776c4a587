/**
 * Issue 16 item 1: the engine must not be a signing oracle for a man in the middle. A TLS proxy
 * with its own key asks the genuine engine's `GET /attestation` to quote
 * nonce ‖ SHA-256("venue/transport-attestation/v1" ‖ manifest carrying the proxy's own SPKI) and
 * serves that as its `/transport-attestation` answer. Were the route to quote those bytes verbatim,
 * checks (a)–(d) would all pass and the client would hand the proxy its credentials. The route
 * quotes SHA-512("venue/attestation/v1" ‖ caller bytes) instead, so the forged evidence fails (a).
 */
import { request as httpsRequest, createServer as createHttpsServer } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransportManifest, transportReportData, type TransportManifest } from '@nightjar/protocol';
import { generateBootCertificate } from '../../engine/src/index.js';
import { createClient } from '../src/index.js';
import { expectRejection, pins, startTestVenue, type TestVenue } from './helpers.js';
import type { NightjarError } from '../src/index.js';
import { NIGHTJAR_ERROR__ATTESTATION_NONCE, TRANSPORT_CHECK, isNightjarError } from '../src/index.js';

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request to the genuine engine, trusting exactly its boot certificate. */
function upstream(
  v: TestVenue,
  path: string,
  method = 'GET',
  headers: IncomingHttpHeaders = {},
  body?: Buffer,
): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const { host: _host, connection: _connection, ...forwarded } = headers;
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: v.engine.port,
        path,
        method,
        headers: forwarded,
        ca: v.engine.certificate.certPem,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The proxy: terminates TLS with its own certificate, records every byte of every request it is
 * sent, answers `/transport-attestation` with evidence quoted through the engine's `/attestation`,
 * and relays everything else to the engine.
 */
async function oracleProxy(v: TestVenue) {
  const cert = await generateBootCertificate();
  const seen: string[] = [];
  const forged: string[] = [];
  const server = createHttpsServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body.toString('latin1')}`);
      const url = new URL(req.url!, 'https://proxy');
      const answer = async (): Promise<Upstream> => {
        if (url.pathname !== '/transport-attestation')
          return upstream(v, req.url!, req.method, req.headers, body.length ? body : undefined);
        const nonce = Buffer.from(url.searchParams.get('nonce')!, 'hex');
        const genuine = JSON.parse(
          (await upstream(v, `/transport-attestation?nonce=${'00'.repeat(32)}`)).body.toString(),
        ) as { manifest: TransportManifest };
        // The genuine manifest, but attesting the proxy's own TLS key.
        const manifest = { ...genuine.manifest, tls_spki_sha256: cert.spkiSha256 };
        const manifestBytes = encodeTransportManifest(manifest);
        const wanted = Buffer.from(transportReportData(nonce, manifestBytes)).toString('hex');
        const quoted = JSON.parse(
          (await upstream(v, `/attestation?reportData=${wanted}`)).body.toString(),
        ) as Record<string, unknown>;
        forged.push(wanted);
        const evidence = {
          manifest,
          manifest_bytes: Buffer.from(manifestBytes).toString('hex'),
          quote: quoted.quote,
          event_log: quoted.event_log,
          report_data: wanted,
          collateral: quoted.collateral,
        };
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(JSON.stringify(evidence)),
        };
      };
      answer().then(
        (r) => {
          const { connection: _c, 'transfer-encoding': _t, 'content-length': _l, ...headers } = r.headers;
          res.writeHead(r.status, { ...headers, 'content-length': r.body.length }).end(r.body);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    forged,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('a TLS proxy that has the engine quote its own manifest through /attestation', () => {
  let v: TestVenue;
  beforeAll(async () => {
    v = await startTestVenue();
  });
  afterAll(async () => {
    await v.close();
  });

  it('is refused at check (a) before any credential leaves the client', async () => {
    const { credentials } = await v.newAccount();
    const proxy = await oracleProxy(v);
    try {
      const p = pins(v);
      const err = await expectRejection(
        createClient({
          baseUrl: proxy.url,
          pinnedRoot: p.rootCaDer,
          composeHash: p.composeHash,
          ledger: v.ledger,
          credentials,
        }),
      );
      // The proxy did serve the forged evidence, and the client refused the quote behind it.
      expect(proxy.forged.length).toBeGreaterThan(0);
      expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_NONCE)).toBe(true);
      expect(TRANSPORT_CHECK[(err as NightjarError<typeof NIGHTJAR_ERROR__ATTESTATION_NONCE>).code]).toBe(
        'a',
      );
      const seen = proxy.seen.join('\n');
      expect(seen).toMatch(/^GET \/transport-attestation\?nonce=[0-9a-f]{64}\n/);
      for (const secret of [credentials.api_key, credentials.api_secret, credentials.passphrase])
        expect(seen).not.toContain(secret);
      expect(seen).not.toMatch(/authorization|bearer|\/auth\/token|POST/i);
    } finally {
      await proxy.close();
    }
  });

  it('is refused on the nonce before the client asks its own collateral source', async () => {
    const { credentials } = await v.newAccount();
    const proxy = await oracleProxy(v);
    const asked: Uint8Array[] = [];
    try {
      const p = pins(v);
      const err = await expectRejection(
        createClient({
          baseUrl: proxy.url,
          pinnedRoot: p.rootCaDer,
          composeHash: p.composeHash,
          ledger: v.ledger,
          credentials,
          fetchCollateral: async (quote) => {
            asked.push(quote);
            throw new Error('not to be reached');
          },
        }),
      );
      expect(proxy.forged.length).toBeGreaterThan(0);
      expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_NONCE)).toBe(true);
      expect(asked).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
