import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SOCKET_LIMITS, STREAM_BUFFER_MESSAGES } from '@nightjar/protocol';
import { resolveStreamLimits } from '../../src/stream/options.js';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';
import { StreamClient } from './stream-client.js';

describe('stream frames and sessions', () => {
  let v: TestVenue;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    v = await startTestVenue();
    ({ token, accountId } = await v.newAccount());
  });
  afterAll(async () => {
    await v.close();
  });

  it('defaults to the spec’s caps: 512 sockets, 8 per account, 1,024 frames of backlog', () => {
    const limits = v.engine.context.streamHub.limits;
    expect([limits.maxSockets, limits.maxPerAccount, limits.bufferLimit]).toEqual([512, 8, 1024]);
    expect(resolveStreamLimits()).toMatchObject({
      maxSockets: SOCKET_LIMITS.total,
      maxPerAccount: SOCKET_LIMITS.perAccount,
      bufferLimit: STREAM_BUFFER_MESSAGES,
      loginDeadlineMs: 10_000,
      idleDropMs: 60_000,
      authExpiredLeadMs: 60_000,
      maxFrameBytes: 16 * 1024,
    });
  });

  it('answers pong before login, with seq from 1 and request_id echoed', async () => {
    const c = await StreamClient.connect(v);
    c.send({ op: 'ping', request_id: 'a' });
    c.send({ op: 'ping', request_id: 18446744073709551615n });
    c.send({ op: 'ping' });
    expect(await c.next()).toEqual({ op: 'pong', seq: 1, request_id: 'a' });
    expect(await c.next()).toEqual({ op: 'pong', seq: 2, request_id: 18446744073709551615n });
    expect(await c.next()).toEqual({ op: 'pong', seq: 3 });
    await c.close();
  });

  it('refuses every op but ping before login (1101) and stays usable', async () => {
    const c = await StreamClient.connect(v);
    for (const frame of [
      { op: 'subscribe', channels: ['orders'] },
      { op: 'unsubscribe', channels: ['orders'] },
      { op: 'order.place', params: {} },
      { op: 'order.cancel', order_id: 'ab'.repeat(16), params: {} },
      { op: 'order.modify', order_id: 'ab'.repeat(16), params: {} },
      { op: 'logout' },
    ]) {
      const reply = await c.request(frame);
      expect(reply, frame.op).toMatchObject({ op: 'error', code: 1101 });
    }
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    expect(c.seqErrors).toEqual([]);
    await c.close();
  });

  it('logs in with the REST token and replies {account_id, expires_at}', async () => {
    const c = await StreamClient.connect(v);
    const reply = await c.request({ op: 'login', token });
    expect(reply).toEqual({
      op: 'login',
      seq: 1,
      request_id: 'r1',
      result: { account_id: accountId, expires_at: expect.any(Number) },
    });
    const session = [...v.engine.context.streamHub.sessionsOf(accountId)!][0]!;
    expect(reply.result.expires_at).toBe(session.principal!.expiresAtMs);
    await c.close();
  });

  it('refuses bad tokens with the REST code and keeps the socket unauthenticated', async () => {
    const c = await StreamClient.connect(v);
    expect(await c.request({ op: 'login', token: 'nj1.nope' })).toMatchObject({ op: 'error', code: 1101 });
    expect(await c.request({ op: 'login', token: token.slice(0, -2) + 'xx' })).toMatchObject({ code: 1101 });
    expect(await c.request({ op: 'subscribe', channels: ['tree'] })).toMatchObject({ code: 1101 });
    expect(await c.request({ op: 'login', token })).toMatchObject({ op: 'login' });
    await c.close();
  });

  it('answers malformed JSON, unknown ops, bad fields, binary and oversize frames with 1001 and stays usable', async () => {
    const c = await StreamClient.login(v, token);
    const raw = (data: string | Buffer, binary = false) => c.ws.send(data, { binary });
    raw('{"op":');
    expect(await c.next()).toMatchObject({ op: 'error', code: 1001, message: 'frame is not valid JSON' });
    raw('{"op":"hack","request_id":"h"}');
    expect(await c.next()).toMatchObject({ op: 'error', code: 1001, request_id: 'h' });
    raw('{"op":"subscribe","channels":["account"],"request_id":7}');
    expect(await c.next()).toMatchObject({ op: 'error', code: 1001, request_id: 7 });
    raw('{"op":"ping","extra":1}');
    expect(await c.next()).toMatchObject({ op: 'error', code: 1001 });
    raw(Buffer.from('{"op":"ping"}'), true);
    expect(await c.next()).toMatchObject({
      op: 'error',
      code: 1001,
      message: expect.stringMatching(/binary/),
    });
    raw(JSON.stringify({ op: 'ping', pad: 'x'.repeat(20_000) }));
    expect(await c.next()).toMatchObject({
      op: 'error',
      code: 1001,
      message: 'frame larger than 16384 bytes',
    });
    raw('[1,2,3]');
    expect(await c.next()).toMatchObject({ op: 'error', code: 1001 });
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    expect(c.seqErrors).toEqual([]);
    await c.close();
  });

  it('closes with 1009 on a frame beyond the 32 KiB hard cap, without reading it', async () => {
    const c = await StreamClient.connect(v);
    c.ws.send('x'.repeat(40_000));
    expect((await c.closed).code).toBe(1009);
  });

  it('subscribe and unsubscribe reply with the session’s channels', async () => {
    const c = await StreamClient.login(v, token);
    expect(await c.request({ op: 'subscribe', channels: ['tree', 'orders'] })).toMatchObject({
      op: 'subscribe',
      result: { channels: ['orders', 'tree'] },
    });
    expect(await c.request({ op: 'subscribe', channels: ['fills'] })).toMatchObject({
      result: { channels: ['orders', 'fills', 'tree'] },
    });
    expect(await c.request({ op: 'unsubscribe', channels: ['orders', 'tree'] })).toMatchObject({
      op: 'unsubscribe',
      result: { channels: ['fills'] },
    });
    expect(v.engine.context.streamHub.treeSubscribers.size).toBe(0);
    await c.close();
  });

  it('a second login refreshes the token and keeps the subscriptions; another account’s token is 4030', async () => {
    const c = await StreamClient.login(v, token);
    await c.request({ op: 'subscribe', channels: ['orders'] });
    const other = await v.newAccount();
    expect(await c.request({ op: 'login', token: other.token })).toMatchObject({ op: 'error', code: 4030 });
    expect(await c.request({ op: 'login', token })).toMatchObject({
      op: 'login',
      result: { account_id: accountId },
    });
    expect(await c.request({ op: 'subscribe', channels: ['tree'] })).toMatchObject({
      result: { channels: ['orders', 'tree'] },
    });
    // Still the first account: its order events route here.
    const session = [...v.engine.context.streamHub.sessionsOf(accountId)!][0]!;
    expect(session.principal!.accountId).toBe(accountId);
    expect(v.engine.context.streamHub.sessionsOf(other.accountId)).toBeUndefined();
    await c.close();
  });

  it('logout replies and closes cleanly with 1000', async () => {
    const c = await StreamClient.login(v, token);
    expect(await c.request({ op: 'logout' })).toMatchObject({ op: 'logout', result: {} });
    expect(await c.closed).toEqual({ code: 1000, reason: 'logged out' });
  });

  it('answers transport-level pings', async () => {
    const c = await StreamClient.connect(v);
    const pong = new Promise<Buffer>((resolve) => c.ws.once('pong', resolve));
    c.ws.ping(Buffer.from('hi'));
    expect((await pong).toString()).toBe('hi');
    await c.close();
  });

  it('answers 404 to upgrades elsewhere and 400 to a query string on /v1/stream', async () => {
    const status = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const ws = new WebSocket(v.engine.url.replace(/^https:/, 'wss:') + path, {
          ca: v.engine.certificate.certPem,
        });
        ws.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        ws.on('open', () => reject(new Error('upgraded')));
        ws.on('error', () => undefined);
      });
    const elsewhere = await status('/v1/other');
    expect(elsewhere.status).toBe(404);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ code: 1301 });
    const query = await status('/v1/stream?token=abc');
    expect(query.status).toBe(400);
    expect(JSON.parse(query.body)).toMatchObject({ code: 1001 });
  });

  it('a plain GET on /v1/stream (no upgrade) is not a socket', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        new URL('/v1/stream', v.engine.url),
        { ca: v.engine.certificate.certPem },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
  });
});
