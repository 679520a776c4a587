/**
 * Issue 33 item 3, the client side: markets on two engines of one venue (one ledger, shared
 * accounts), over real HTTPS with attestation. The SDK logs in at its own engine, reads
 * `/instruments`, and sends each market's operations to the engine serving it (verified and
 * logged in there first); the stream merges both engines' events; an engine that fails
 * verification fails only its own market.
 */
import { randomBytes } from 'node:crypto';
import { requiredCollateral } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelAll,
  cancelOrder,
  createClient,
  createStream,
  getOpenOrders,
  getOrder,
  isNightjarError,
  placeOrder,
  type Credentials,
  type StreamClientEvent,
} from '../src/index.js';
import {
  finalize,
  fund,
  MARKET_A,
  MARKET_B,
  newParty,
  pins,
  startTwoEngineVenue,
  units,
  type Party,
  type TwoEngineVenue,
} from '@nightjar/testkit';
import { expectRejection, requestLog, type LoggedRequest } from './helpers.js';

/** Resolves once `condition` holds, polling; fails after `ms`. */
async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Funds `p` with one USDC note per market, each enough for a 1-unit bid at 150, final at both engines. */
async function fundBids(v: TwoEngineVenue, p: Party): Promise<void> {
  let need = 0n;
  let usdc = '';
  for (const symbol of [MARKET_A, MARKET_B]) {
    const inst = await p.client.instrument(symbol);
    const { one, price } = units(inst);
    const c = requiredCollateral('bid', one, price(150), inst);
    if (c > need) need = c;
    usdc = inst.quote_mint;
  }
  await fund(p, v.a, usdc, need);
  await fund(p, v.a, usdc, need);
  await finalize(v.a);
  await v.b.engine.context.trees.checkAgainstChain();
}

const bid = (symbol: string) => ({ symbol, side: 'bid' as const, amount: '1', price: '150' });

/** The venue, and a funded party logged in at engine A with `credentials`, closed after the tests. */
function twoEngineParty(composeHashB?: string) {
  // Each engine's requests (path and query), to see which engine heard what.
  const logA = requestLog();
  const logB = requestLog();
  const ctx = { logA: logA.requests, logB: logB.requests } as {
    v: TwoEngineVenue;
    p: Party;
    credentials: Credentials;
    logA: LoggedRequest[];
    logB: LoggedRequest[];
  };
  beforeAll(async () => {
    ctx.v = await startTwoEngineVenue({
      ...(composeHashB ? { composeHashB } : {}),
      a: { logger: logA.logger },
      b: { logger: logB.logger },
    });
    ({ credentials: ctx.credentials } = await ctx.v.a.newAccount());
    ctx.p = await newParty(ctx.v.a, { client: { credentials: ctx.credentials } });
    await fundBids(ctx.v, ctx.p);
  }, 120_000);
  afterAll(async () => {
    await ctx.p?.client.close();
    await ctx.v?.close();
  });
  return ctx;
}

describe('two engines, one venue: each market at its engine', () => {
  const ctx = twoEngineParty();

  it('lists each market at its engine, places each order there, reads and cancels there', async () => {
    const { v, p, credentials } = ctx;
    const listed = await p.client.engines();
    expect(listed.map((e) => e.baseUrl)).toEqual([v.a.engine.url, v.b.engine.url]);
    const atB = await p.client.engineFor(MARKET_B);
    expect(atB.baseUrl).toBe(v.b.engine.url);
    // Its own session: its own verified socket and its own login (tokens are per engine).
    expect(atB.transport).not.toBe(p.client.transport);
    expect(atB.tokenExpiry()).toBeDefined();
    expect(await atB.bootSessionId()).toBe(v.b.engine.context.bootSessionId);
    expect(await p.client.engineFor(MARKET_A)).not.toBe(atB);

    const stream = await createStream(p.client, { channels: ['orders'] });
    const events: StreamClientEvent[] = [];
    stream.on('order', (e) => events.push(e));
    try {
      const onA = await placeOrder(p.client, bid(MARKET_A));
      const onB = await placeOrder(p.client, bid(MARKET_B));
      // Each engine holds only its own market's order.
      expect(v.a.engine.context.registry.getLive(onA.orderId)).toBeDefined();
      expect(v.b.engine.context.registry.get(onA.orderId)).toBeUndefined();
      expect(v.b.engine.context.registry.getLive(onB.orderId)).toBeDefined();
      expect(v.a.engine.context.registry.get(onB.orderId)).toBeUndefined();
      // B's order's input proof is built on B's own tree mirror; A never hears B's note.
      const asked = (log: LoggedRequest[], note: string) =>
        log.some((r) => r.url.startsWith('/tree/inclusion') && r.url.includes(note));
      expect(asked(ctx.logB, onB.noteCommitment)).toBe(true);
      expect(ctx.logA.some((r) => r.url.includes(onB.noteCommitment))).toBe(false);
      expect(asked(ctx.logA, onA.noteCommitment)).toBe(true);
      // And its note was chosen by what B's mirror has (B's /tree/root).
      expect(ctx.logB.some((r) => r.url.startsWith('/tree/root'))).toBe(true);

      expect((await getOrder(p.client, { orderId: onB.orderId })).symbol).toBe(MARKET_B);
      const open = (await getOpenOrders(p.client)).map((o) => o.order_id).sort();
      expect(open).toEqual([onA.orderId, onB.orderId].sort());
      expect((await getOpenOrders(p.client, { symbol: MARKET_B })).map((o) => o.order_id)).toEqual([
        onB.orderId,
      ]);

      // A client that does not track the order asks every engine; 404 only when all say so.
      const bare = await createClient({
        baseUrl: v.a.engine.url,
        pinnedRoot: pins(v.a).rootCaDer,
        composeHash: pins(v.a).composeHash,
        ledger: v.a.ledger,
        credentials,
        backoff: { attempts: 1 },
      });
      try {
        expect((await getOrder(bare, { orderId: onB.orderId })).symbol).toBe(MARKET_B);
        const unknown = await expectRejection(getOrder(bare, { orderId: randomBytes(16).toString('hex') }));
        expect(isNightjarError(unknown, 1301)).toBe(true);
      } finally {
        await bare.close();
      }

      await cancelOrder(p.client, { orderId: onB.orderId });
      expect(v.b.engine.context.registry.getLive(onB.orderId)).toBeUndefined();
      const all = await cancelAll(p.client);
      expect(all).toMatchObject({ cancelled: [onA.orderId], failed: [], unreachable: [] });
      expect(v.a.engine.context.registry.getLive(onA.orderId)).toBeUndefined();

      // The merged stream: each cancel from its own engine, each event naming it.
      await until(() => events.length >= 2, 'both engines’ cancel events');
      const seen = events.map((e) => e.type === 'order' && [e.event.order_id, e.event.kind, e.engine]);
      expect(seen).toContainEqual([onB.orderId, 'cancelled', v.b.engine.url]);
      expect(seen).toContainEqual([onA.orderId, 'cancelled', v.a.engine.url]);
    } finally {
      await stream.close();
    }
  });

  it('the tree channel (the one ledger) comes from the own engine alone', async () => {
    const { v, p } = ctx;
    const stream = await createStream(p.client, { channels: ['orders', 'tree'] });
    const trees: StreamClientEvent[] = [];
    stream.on('tree', (e) => trees.push(e));
    try {
      await fund(p, v.a, (await p.client.instrument(MARKET_A)).quote_mint, 1_000n);
      await finalize(v.a);
      await v.b.engine.context.trees.checkAgainstChain();
      await until(() => trees.length > 0, 'a tree event');
      expect(new Set(trees.map((e) => e.engine))).toEqual(new Set([v.a.engine.url]));
    } finally {
      await stream.close();
    }
  });
});

describe('two engines: one that fails verification fails only its market', () => {
  // B runs a release the client did not pin.
  const ctx = twoEngineParty('ab'.repeat(32));

  it('B is refused before anything is sent to it; A keeps trading; merged reads name B', async () => {
    const { v, p } = ctx;
    const bLog = v.b.engine.context.registry;
    const refused = await expectRejection(placeOrder(p.client, bid(MARKET_B)));
    expect(isNightjarError(refused)).toBe(true);
    expect(refused.message).toContain(v.b.engine.url);
    expect((refused as { codeName?: string }).codeName).toMatch(/^ATTESTATION_/);
    expect([...bLog.liveOrders()]).toEqual([]);

    const stream = await createStream(p.client, { channels: ['orders'] });
    const events: StreamClientEvent[] = [];
    stream.on('order', (e) => events.push(e));
    const errors: StreamClientEvent[] = [];
    stream.on('error', (e) => errors.push(e));
    try {
      // B's stream could not be opened: an error event says so, naming B, to listeners added
      // once the stream is held, and first to the iterator.
      const { value: first } = await stream[Symbol.asyncIterator]().next();
      expect(first).toMatchObject({ type: 'error', engine: v.b.engine.url });
      expect(first?.type === 'error' && first.error.message).toContain(v.b.engine.url);
      expect(errors).toEqual([first]);
      const onA = await placeOrder(p.client, bid(MARKET_A));
      expect(v.a.engine.context.registry.getLive(onA.orderId)).toBeDefined();
      expect((await getOrder(p.client, { orderId: onA.orderId })).symbol).toBe(MARKET_A);
      expect((await getOpenOrders(p.client, { symbol: MARKET_A })).map((o) => o.order_id)).toEqual([
        onA.orderId,
      ]);
      // The merged list would not be whole: it fails, naming B.
      expect((await expectRejection(getOpenOrders(p.client))).message).toContain(v.b.engine.url);

      const all = await cancelAll(p.client);
      expect(all.cancelled).toEqual([onA.orderId]);
      expect(all.unreachable.map((u) => u.baseUrl)).toEqual([v.b.engine.url]);
      await until(() => events.some((e) => e.type === 'order'), 'A’s cancel event');
      const order = events.find((e) => e.type === 'order');
      expect(order).toMatchObject({
        event: { order_id: onA.orderId, kind: 'cancelled' },
        engine: v.a.engine.url,
      });
    } finally {
      await stream.close();
    }
  });
});
