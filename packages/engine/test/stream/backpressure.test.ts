/**
 * Loss is visible, never silent: a consumer that overruns its backlog is closed with 1011 while a
 * fast one keeps receiving contiguous seq; a gap in the bus sequence (events that never reached the
 * fan-out) or a fan-out failure closes every live session with 1011; so does a tree shard rebuilt
 * without per-leaf events, for tree subscribers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/stream/clock.js';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';
import { RawWsClient } from './raw-ws.js';
import { eventually, StreamClient } from './stream-client.js';

const bigEvent = (i: number) => ({
  order_id: i.toString(16).padStart(32, '0'),
  market_id: 'm',
  server_time_ms: i,
  kind: 'settlement_failed' as const,
  reason: 'x'.repeat(8_000),
});

describe('a slow consumer', () => {
  let v: TestVenue;

  beforeAll(async () => {
    v = await startTestVenue();
  });
  afterAll(async () => {
    await v.close();
  });

  it('is closed with 1011 past 1,024 waiting frames while a fast session of the same account keeps contiguous seq', async () => {
    const { token, accountId } = await v.newAccount();
    const hub = v.engine.context.streamHub;
    const [slow, fast] = await Promise.all(
      [1, 2].map(() => RawWsClient.connect(v.engine.url, v.engine.certificate.certPem)),
    );
    for (const c of [slow!, fast!]) {
      c.sendText(JSON.stringify({ op: 'login', token }));
      c.sendText(JSON.stringify({ op: 'subscribe', channels: ['orders'] }));
      await c.until(() => c.textFrames === 2, 'login and subscribe replies');
    }
    const bystander = await StreamClient.login(v, (await v.newAccount()).token);
    await bystander.request({ op: 'subscribe', channels: ['orders', 'tree'] });

    slow!.socket.pause(); // stops reading: kernel buffers fill, then the engine-side backlog
    let emitted = 0;
    for (let chunk = 0; chunk < 100 && hub.stats().slowConsumerCloses === 0; chunk++) {
      for (let i = 0; i < 100; i++) v.engine.events.emit(accountId, bigEvent(++emitted));
      // Paced by the fast consumer, which therefore never has a backlog of its own.
      await fast!.until(() => fast!.textFrames === emitted + 2, `${emitted} events at the fast client`);
    }
    expect(hub.stats().slowConsumerCloses).toBe(1);
    expect(hub.sessionsOf(accountId)?.size).toBe(1);
    // The fast session goes on, seq contiguous; the bystander noticed nothing.
    for (let i = 0; i < 10; i++) v.engine.events.emit(accountId, bigEvent(++emitted));
    await fast!.until(() => fast!.textFrames === emitted + 2, 'the events after the close');
    expect(fast!.seqErrors).toEqual([]);
    expect(await bystander.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    expect(hub.stats().fanoutLosses).toBe(0);

    // The slow client, reading again, finds contiguous seq up to where it was cut off, then 1011.
    slow!.socket.resume();
    await slow!.ended;
    expect(slow!.closeCode).toBe(1011);
    expect(slow!.seqErrors).toEqual([]);
    expect(slow!.textFrames).toBeLessThan(emitted + 2);
    fast!.destroy();
    await bystander.close();
  }, 20_000);
});

describe('a fan-out loss', () => {
  let v: TestVenue;

  beforeAll(async () => {
    v = await startTestVenue({ stream: { feedCapacity: 4 } });
  });
  afterAll(async () => {
    await v.close();
  });

  const event = (i: number) => ({
    order_id: i.toString(16).padStart(32, '0'),
    market_id: 'm',
    server_time_ms: i,
    kind: 'expired' as const,
  });

  it('a gap in the bus sequence closes every live session with 1011', async () => {
    const a = await v.newAccount();
    const b = await v.newAccount();
    const sa = await StreamClient.login(v, a.token);
    await sa.request({ op: 'subscribe', channels: ['orders'] });
    const sb = await StreamClient.login(v, b.token); // not even subscribed: it may have missed events too
    const unauthenticated = await StreamClient.connect(v);
    // Six publications in one turn into a feed that holds four: two never reach the fan-out.
    for (let i = 1; i <= 6; i++) v.engine.events.emit(a.accountId, event(i));
    for (const c of [sa, sb, unauthenticated]) expect((await c.closed).code).toBe(1011);
    expect(v.engine.context.streamHub.stats().fanoutLosses).toBe(1);
    // What did arrive before the cut was contiguous.
    expect(sa.seqErrors).toEqual([]);
    // The venue carries on: a new session receives events normally.
    const again = await StreamClient.login(v, a.token);
    await again.request({ op: 'subscribe', channels: ['orders'] });
    v.engine.events.emit(a.accountId, event(7));
    expect(await again.find((f) => f.channel === 'orders')).toMatchObject({ order_id: event(7).order_id });
    await again.close();
  });

  it('an event that fails to fan out counts as lost', async () => {
    const a = await v.newAccount();
    const sa = await StreamClient.login(v, a.token);
    await sa.request({ op: 'subscribe', channels: ['orders'] });
    const poisoned = {
      ...event(8),
      get market_id(): string {
        throw new Error('unserializable');
      },
    };
    v.engine.events.emit(a.accountId, poisoned);
    expect((await sa.closed).code).toBe(1011);
    expect(v.engine.context.streamHub.stats().fanoutLosses).toBe(2);
  });

  it('a rebuilt tree shard closes the tree subscribers with 1011, and only them', async () => {
    const a = await v.newAccount();
    const tree = await StreamClient.login(v, a.token);
    await tree.request({ op: 'subscribe', channels: ['tree'] });
    const orders = await StreamClient.login(v, a.token);
    await orders.request({ op: 'subscribe', channels: ['orders'] });
    v.engine.events.publish({ channel: 'tree-reset', treeId: 0 });
    expect(await tree.closed).toMatchObject({ code: 1011, reason: expect.stringMatching(/rebuilt/) });
    expect(await orders.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    await orders.close();
  });
});

describe('a paused reader', () => {
  const clock = new ManualClock(Date.now());
  let v: TestVenue;

  beforeAll(async () => {
    v = await startTestVenue({ now: clock.now, stream: { clock, bufferLimit: 16 } });
  });
  afterAll(async () => {
    await v.close();
  });

  const hub = () => v.engine.context.streamHub;

  /** A logged-in, subscribed raw client that then stops reading until its backlog overflows. */
  async function overflowedReader(): Promise<{ slow: RawWsClient; accountId: string }> {
    const { token, accountId } = await v.newAccount();
    const client = await RawWsClient.connect(v.engine.url, v.engine.certificate.certPem);
    client.sendText(JSON.stringify({ op: 'login', token }));
    client.sendText(JSON.stringify({ op: 'subscribe', channels: ['orders'] }));
    await client.until(() => client.textFrames === 2, 'login and subscribe replies');
    const closesBefore = hub().stats().slowConsumerCloses;
    client.socket.pause(); // the TLS socket stops reading: kernel buffers fill, then the backlog
    // One frame per turn, under the socket's high-water mark: the backlog only grows once the
    // kernel's buffers are full, so the close frame really queues behind them.
    let emitted = 0;
    await eventually(
      () => {
        v.engine.events.emit(accountId, bigEvent(++emitted));
        return hub().stats().slowConsumerCloses > closesBefore;
      },
      'the backlog to overflow',
      15_000,
    );
    expect(emitted).toBeGreaterThan(100);
    return { slow: client, accountId };
  }

  it('receives the 1011 close frame when it resumes reading within the 60 s silence window', async () => {
    const sockets = hub().stats().sockets;
    const { slow, accountId } = await overflowedReader();
    // The session is over (backlog dropped) but the socket stays for its close frame, and counts
    // against the account's socket cap until it is gone.
    clock.advance(59_000);
    expect(hub().stats().sockets).toBe(sockets + 1);
    expect(hub().sessionsOf(accountId)).toBeUndefined();
    expect(hub().accountSocketCount(accountId)).toBe(1);
    slow.socket.resume();
    await slow.ended;
    expect(slow.closeCode).toBe(1011);
    expect(slow.seqErrors).toEqual([]);
    await eventually(() => hub().stats().sockets === sockets, 'the socket to go');
  }, 20_000);

  it('is cut off after more than 60 s of silence (it never gets the close frame)', async () => {
    const sockets = hub().stats().sockets;
    const { slow, accountId } = await overflowedReader();
    clock.advance(60_000);
    expect(hub().stats().sockets).toBe(sockets + 1);
    clock.advance(1);
    await eventually(() => hub().stats().sockets === sockets, 'the silent socket to be destroyed');
    expect(hub().accountSocketCount(accountId)).toBe(0);
    slow.socket.resume();
    await slow.ended;
    expect(slow.closeCode).toBeUndefined();
  }, 20_000);
});
