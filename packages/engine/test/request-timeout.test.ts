import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildHttpServer } from '../src/http/server.js';
import { generateBootCertificate, type BootCertificate } from '../src/tls.js';
import { RawHttps } from './raw-https.js';

describe('a request that never arrives whole', () => {
  let app: FastifyInstance;
  let raw: RawHttps;
  let certificate: BootCertificate;

  beforeAll(async () => {
    certificate = await generateBootCertificate();
    app = buildHttpServer({ certificate, idleTimeoutMs: 300 });
    app.post('/echo', async (req) => req.body);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    raw = new RawHttps(`https://127.0.0.1:${port}`, certificate.certPem);
  });
  afterAll(async () => {
    raw.close();
    await app.close();
  });

  it('has its socket closed by the server once idle, instead of holding it forever', async () => {
    // Content-Length promises 100 bytes; 2 arrive. The server, not this test, decides when to stop.
    const closed = await raw
      .tls(
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}',
      )
      .then(
        () => 'answered',
        (err: Error) => err.message,
      );
    expect(closed).toMatch(/^closed without a response/);
  });

  it('a whole request on the same server is answered normally', async () => {
    const r = await raw.send({
      method: 'POST',
      path: '/echo',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect([r.status, JSON.parse(r.text)]).toEqual([200, { a: 1 }]);
  });
});
