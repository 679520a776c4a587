/**
 * Issue 16 item 18: a modify sent on a cancel-on-disconnect session places its replacement on
 * that session, so the socket's close cancels the replacement too (it used to carry only the old
 * order's tag: none for an order placed elsewhere, or another session's). Over the real WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, USDC, type TestVenue } from '@nightjar/testkit';
import { disconnected, orderStatus, ProofGate } from './disconnect-helpers.js';
import { eventually, StreamClient } from './stream-client.js';

describe('cancel-on-disconnect covers a modify’s replacement', () => {
  let v: TestVenue;
  const gate = new ProofGate();
  beforeAll(async () => {
    v = await startTestVenue({
      orderRateLimit: { capacity: 1000, refillPerSecond: 1000 },
      // A proof check the test can hold open, to close a socket while a modify is in flight.
      verifyInputProof: gate.verify,
    });
  });
  afterAll(async () => {
    await v.close();
  });

  const status = (token: string, orderId: string) => orderStatus(v, token, orderId);
  const disconnect = (c: StreamClient) => disconnected(v, c);

  for (const sameId of [false, true]) {
    it(`an order placed over REST, modified on the session (${sameId ? 'same' : 'new'} id): the replacement is cancelled at close`, async () => {
      const { token } = await v.newAccount();
      const trader = v.trader();
      const watcher = await StreamClient.login(v, token);
      await watcher.request({ op: 'subscribe', channels: ['orders'] });
      const c = await StreamClient.login(v, token, { cancel_on_disconnect: true });
      const note = await trader.deposit(USDC, 1_000_000_000n);
      const placed = trader.order(note);
      expect((await v.client.send('/orders', { token, body: placed })).status).toBe(202);
      const replacement = trader.order(note, {
        price_limit: 149_000_000n,
        ...(sameId ? { order_id: placed.order_id } : {}),
      });
      const reply = await c.request({
        op: 'order.modify',
        order_id: placed.order_id,
        params: trader.modifyBody(placed.order_id, replacement),
      });
      expect(reply).toMatchObject({ op: 'order.modify', result: { order_id: replacement.order_id } });
      expect(await status(token, replacement.order_id)).toBe('pending');

      await disconnect(c);
      expect(
        await watcher.find((f) => f.order_id === replacement.order_id && f.kind === 'cancelled'),
      ).toMatchObject({
        channel: 'orders',
      });
      expect(await status(token, replacement.order_id)).toBe('cancelled');
      await watcher.close();
    });
  }

  it('placed on one cancel-on-disconnect session, modified on another: closing the second cancels it', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const first = await StreamClient.login(v, token, { cancel_on_disconnect: true });
    const second = await StreamClient.login(v, token, { cancel_on_disconnect: true });
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const placed = trader.order(note);
    expect((await first.request({ op: 'order.place', params: placed })).op).toBe('order.place');
    const replacement = trader.order(note, { price_limit: 149_000_000n });
    await second.request({
      op: 'order.modify',
      order_id: placed.order_id,
      params: trader.modifyBody(placed.order_id, replacement),
    });
    await disconnect(second);
    expect(await status(token, replacement.order_id)).toBe('cancelled');
    await first.close();
  });

  it('a modify still verifying when the socket closes: its replacement is cancelled once it books', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const c = await StreamClient.login(v, token, { cancel_on_disconnect: true });
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const placed = trader.order(note);
    expect((await v.client.send('/orders', { token, body: placed })).status).toBe(202);
    const replacement = trader.order(note, { price_limit: 149_000_000n });
    gate.hold();
    c.send({
      op: 'order.modify',
      order_id: placed.order_id,
      params: trader.modifyBody(placed.order_id, replacement),
    });
    await eventually(() => gate.held === 1, 'the replacement’s proof check to start');
    await disconnect(c);
    gate.release();
    await eventually(
      () => v.engine.context.registry.get(replacement.order_id) !== undefined,
      'the replacement to book',
    );
    expect(await status(token, replacement.order_id)).toBe('cancelled');
  });

  it('modified over REST: the replacement keeps the session its old order was placed on', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const c = await StreamClient.login(v, token, { cancel_on_disconnect: true });
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const placed = trader.order(note);
    await c.request({ op: 'order.place', params: placed });
    const replacement = trader.order(note, { price_limit: 149_000_000n });
    const r = await v.client.send(`/orders/${placed.order_id}`, {
      method: 'PUT',
      token,
      body: trader.modifyBody(placed.order_id, replacement),
    });
    expect(r.status, r.text).toBe(202);
    await disconnect(c);
    expect(await status(token, replacement.order_id)).toBe('cancelled');
  });

  it('a modify on a session without cancel-on-disconnect leaves the replacement resting at close', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const c = await StreamClient.login(v, token);
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const placed = trader.order(note);
    await c.request({ op: 'order.place', params: placed });
    const replacement = trader.order(note, { price_limit: 149_000_000n });
    await c.request({
      op: 'order.modify',
      order_id: placed.order_id,
      params: trader.modifyBody(placed.order_id, replacement),
    });
    await disconnect(c);
    expect(await status(token, replacement.order_id)).toBe('pending');
  });
});
