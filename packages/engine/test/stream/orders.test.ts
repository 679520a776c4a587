/** Order operations over the stream (same intake, codes, bodies and rate limit as REST) and the three channels. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldToHex } from '@nightjar/protocol';
import { startTestVenue, USDC, type Note, type TestVenue, type Trader } from '@nightjar/testkit';
import { StreamClient, type Frame } from './stream-client.js';

const barrierId = (n: number) => n.toString(16).padStart(32, 'f');

describe('order operations and channels over the stream', () => {
  let v: TestVenue;
  let alice: { token: string; accountId: string };
  let trader: Trader;
  let c: StreamClient;
  let n = 0;

  beforeAll(async () => {
    v = await startTestVenue({ orderRateLimit: { capacity: 1000, refillPerSecond: 1000 } });
    alice = await v.newAccount();
    trader = v.trader();
    c = await StreamClient.login(v, alice.token);
    await c.request({ op: 'subscribe', channels: ['orders'] });
  });
  afterAll(async () => {
    expect(c.seqErrors).toEqual([]);
    await c.close();
    await v.close();
  });

  /** Publishes an order event for `accountId` that a subscriber must see after everything before it. */
  const barrier = (accountId: string): string => {
    const orderId = barrierId(++n);
    v.engine.events.emit(accountId, {
      order_id: orderId,
      market_id: 'barrier',
      server_time_ms: 0,
      kind: 'expired',
    });
    return orderId;
  };
  const orderEvents = (client: StreamClient, orderId: string): Frame[] =>
    client.events('orders').filter((f) => f.order_id === orderId);

  it('order.place replies with the REST body; a byte-identical re-send gets the same reply', async () => {
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const body = trader.order(note);
    const reply = await c.request({ op: 'order.place', params: body });
    expect(reply).toEqual({
      op: 'order.place',
      seq: expect.any(Number),
      request_id: expect.any(String),
      result: { order_id: body.order_id, status: 'accepted', arrival_slot: v.engine.context.chain.slot },
    });
    const again = await c.request({ op: 'order.place', params: body });
    expect(again.result).toEqual(reply.result);
    // REST sees it, under the same account.
    const rest = await v.client.send(`/orders/${body.order_id}`, { token: alice.token });
    expect(rest.body).toMatchObject({ order_id: body.order_id, status: 'pending' });
  });

  it('order.place reports the REST codes in error frames', async () => {
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const cases: [object, number][] = [
      [{}, 1001],
      [trader.order(note, { valid_input_proof: 'ee'.repeat(256) }), 1011],
      [trader.order(note, { merkle_root: '01'.repeat(32) }), 1010],
      [trader.order(note, { session_id: 'ab'.repeat(32) }), 1205],
      [trader.order(note, { trading_key_signature: 'aa'.repeat(64) }), 1102],
      [trader.order(note, { symbol: 'BTC-USDC' }), 1301],
    ];
    for (const [params, code] of cases) {
      const reply = await c.request({ op: 'order.place', params });
      const rest = await v.client.send('/orders', { token: alice.token, body: params });
      expect(reply, String(code)).toMatchObject({ op: 'error', code });
      expect(reply.message).toBe(rest.body.message);
    }
    const ok = trader.order(note);
    expect((await c.request({ op: 'order.place', params: ok })).op).toBe('order.place');
    expect(await c.request({ op: 'order.place', params: trader.order(note) })).toMatchObject({ code: 1204 });
    expect(
      await c.request({ op: 'order.place', params: trader.order(note, { order_id: ok.order_id }) }),
    ).toMatchObject({ code: 1201 });
  });

  it('order.cancel: the REST body, 1102, 1103, 1001 for a bad id, 1301 once gone, and the cancelled event', async () => {
    const body = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await c.request({ op: 'order.place', params: body });
    const cancel = (params: object, orderId = body.order_id) =>
      c.request({ op: 'order.cancel', order_id: orderId, params });
    expect(
      await cancel({ ...trader.cancelBody(body.order_id), trading_key_signature: 'aa'.repeat(64) }),
    ).toMatchObject({ code: 1102 });
    expect(await cancel(v.trader().cancelBody(body.order_id))).toMatchObject({ code: 1103 });
    expect(await cancel(trader.cancelBody(body.order_id), 'zz')).toMatchObject({ code: 1001 });
    expect(await cancel(trader.cancelBody(body.order_id))).toMatchObject({
      op: 'order.cancel',
      result: { order_id: body.order_id, status: 'cancelled' },
    });
    expect(await cancel(trader.cancelBody(body.order_id))).toMatchObject({ code: 1301 });
    const event = await c.find((f) => f.channel === 'orders' && f.order_id === body.order_id);
    expect(event).toEqual({
      channel: 'orders',
      seq: expect.any(Number),
      order_id: body.order_id,
      market_id: v.engine.context.markets.list().find((m) => m.symbol === 'SOL-USDC')!.market_id,
      server_time_ms: expect.any(Number),
      kind: 'cancelled',
    });
  });

  it('order.modify: reprice in place and replace with a new id (the old one cancelled), 1203', async () => {
    const note = await trader.deposit(USDC, 2_000_000_000n);
    const first = trader.order(note);
    await c.request({ op: 'order.place', params: first });
    const repriced = trader.order(note, { order_id: first.order_id, price_limit: 149_000_000n });
    expect(
      await c.request({
        op: 'order.modify',
        order_id: first.order_id,
        params: trader.modifyBody(first.order_id, repriced),
      }),
    ).toMatchObject({
      op: 'order.modify',
      result: { order_id: first.order_id, status: 'accepted', replaced_order_id: first.order_id },
    });
    const other = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await c.request({ op: 'order.place', params: other });
    const clash = trader.order(note, { order_id: other.order_id });
    expect(
      await c.request({
        op: 'order.modify',
        order_id: first.order_id,
        params: trader.modifyBody(first.order_id, clash),
      }),
    ).toMatchObject({ code: 1203 });
    const moved = trader.order(note, { price_limit: 148_000_000n });
    expect(
      await c.request({
        op: 'order.modify',
        order_id: first.order_id,
        params: trader.modifyBody(first.order_id, moved),
      }),
    ).toMatchObject({ result: { order_id: moved.order_id, replaced_order_id: first.order_id } });
    expect(await c.find((f) => f.channel === 'orders' && f.order_id === first.order_id)).toMatchObject({
      kind: 'cancelled',
    });
  });

  it('orders are routed by the account recorded at intake: a subscriber sees only its own', async () => {
    const bob = await v.newAccount();
    const bobStream = await StreamClient.login(v, bob.token);
    await bobStream.request({ op: 'subscribe', channels: ['orders'] });
    const aliceQuiet = await StreamClient.login(v, alice.token); // same account, not subscribed
    const body = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await c.request({ op: 'order.place', params: body });
    // Cancelled over REST: the event still reaches alice's stream subscriber.
    await v.client.send(`/orders/${body.order_id}`, {
      method: 'DELETE',
      token: alice.token,
      body: trader.cancelBody(body.order_id),
    });
    await c.find((f) => f.order_id === body.order_id);
    const fence = barrier(bob.accountId);
    await bobStream.find((f) => f.order_id === fence);
    expect(orderEvents(bobStream, body.order_id)).toEqual([]);
    await aliceQuiet.request({ op: 'subscribe', channels: ['orders'] });
    const fence2 = barrier(alice.accountId);
    await aliceQuiet.find((f) => f.order_id === fence2);
    expect(orderEvents(aliceQuiet, body.order_id)).toEqual([]);
    expect([bobStream.seqErrors, aliceQuiet.seqErrors]).toEqual([[], []]);
    await Promise.all([bobStream.close(), aliceQuiet.close()]);
  });

  it('fills: a fill on the event bus reaches the account’s fills subscribers only', async () => {
    const fills = await StreamClient.login(v, alice.token);
    await fills.request({ op: 'subscribe', channels: ['fills', 'orders'] });
    const bob = await v.newAccount();
    const bobStream = await StreamClient.login(v, bob.token);
    await bobStream.request({ op: 'subscribe', channels: ['fills', 'orders'] });
    const body = {
      order_id: 'ab'.repeat(16),
      market_id: 'market',
      match_id: '7',
      batch_id: 3n,
      outcome: 'confirmed' as const,
      tree_id: 0,
      memo: 'cd'.repeat(194),
      server_time_ms: 1_700_000_000_000,
    };
    v.engine.events.fill(alice.accountId, body);
    const fence = barrier(bob.accountId);
    expect(await fills.find((f) => f.channel === 'fills')).toEqual({
      channel: 'fills',
      seq: expect.any(Number),
      ...body,
      batch_id: 3,
    });
    await bobStream.find((f) => f.order_id === fence);
    expect(bobStream.events('fills')).toEqual([]);
    // `c` is alice's but subscribed to orders only.
    const fence2 = barrier(alice.accountId);
    await c.find((f) => f.order_id === fence2);
    expect(c.events('fills')).toEqual([]);
    await Promise.all([fills.close(), bobStream.close()]);
  });

  it('tree: one push per finalized leaf the mirror applies, in leaf order, with the root after it', async () => {
    const t = await StreamClient.login(v, alice.token);
    await t.request({ op: 'subscribe', channels: ['tree'] });
    const shard = () => v.engine.context.trees.shard(0)!;
    const first: Note = await trader.deposit(USDC, 5n);
    const leafA = await t.find((f) => f.channel === 'tree' && f.value === first.commitment);
    const rootAfterA = fieldToHex(shard().root);
    const second: Note = await trader.deposit(USDC, 6n);
    const leafB = await t.find((f) => f.channel === 'tree' && f.value === second.commitment);
    expect(leafA).toEqual({
      channel: 'tree',
      seq: expect.any(Number),
      tree_id: 0,
      leaf_index: shard().size - 2,
      value: first.commitment,
      merkle_root: rootAfterA,
      slot: expect.any(Number),
    });
    expect(leafB).toMatchObject({ leaf_index: leafA.leaf_index + 1, merkle_root: fieldToHex(shard().root) });
    expect(leafB.seq).toBeGreaterThan(leafA.seq);
    // The slot is the deposit's landing slot, and the leaf was applied once finalized (31 slots on).
    expect(leafB.slot).toBeGreaterThan(leafA.slot);
    expect(v.engine.context.chain.slot - leafB.slot).toBeGreaterThanOrEqual(31);
    const all = t.events('tree').map((f) => f.leaf_index as number);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    await t.close();
  });
});

describe('the order rate limit is shared with REST', () => {
  let v: TestVenue;

  beforeAll(async () => {
    v = await startTestVenue({ orderRateLimit: { capacity: 2, refillPerSecond: 0.001 } });
  });
  afterAll(async () => {
    await v.close();
  });

  it('1401 in an error frame once REST and stream have used the bucket', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const notes = [];
    for (let i = 0; i < 4; i++) notes.push(await trader.deposit(USDC, 1_000_000_000n + BigInt(i)));
    const c = await StreamClient.login(v, token);
    expect((await v.client.send('/orders', { token, body: trader.order(notes[0]!) })).status).toBe(202);
    expect((await c.request({ op: 'order.place', params: trader.order(notes[1]!) })).op).toBe('order.place');
    const limited = await c.request({ op: 'order.place', params: trader.order(notes[2]!) });
    expect(limited).toMatchObject({
      op: 'error',
      code: 1401,
      message: expect.stringMatching(/retry in about/),
    });
    expect((await v.client.send('/orders', { token, body: trader.order(notes[3]!) })).status).toBe(429);
    // Over the limit, a cancel or modify frame is refused at the door too, whatever it carries.
    for (const op of ['order.cancel', 'order.modify'] as const) {
      const r = await c.request({ op, order_id: '0'.repeat(31) + '1', params: { not: 'checked' } });
      expect(r).toMatchObject({ op: 'error', code: 1401 });
    }
    await c.close();
  });
});

describe('a stream caller over its limit costs no verification', () => {
  let v: TestVenue;
  let proofChecks = 0;

  beforeAll(async () => {
    v = await startTestVenue({
      now: () => 1_700_000_000_000,
      orderRateLimit: { capacity: 3, refillPerSecond: 1 },
      verifyInputProof: async () => {
        proofChecks++;
        return false;
      },
    });
  });
  afterAll(async () => {
    await v.close();
  });

  it('only the admitted places reach the proof verifier', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const c = await StreamClient.login(v, token);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => c.request({ op: 'order.place', params: trader.order(note) })),
    );
    expect(replies.filter((r) => r.code === 1011)).toHaveLength(3);
    expect(replies.filter((r) => r.code === 1401)).toHaveLength(7);
    expect(proofChecks).toBe(3);
    await c.close();
  });
});
