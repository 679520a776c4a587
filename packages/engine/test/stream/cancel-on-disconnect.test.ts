/**
 * Cancel-on-disconnect: from the login flag, else the account default (an explicit login value
 * wins). When the socket closes, that session's still-resting orders are cancelled with their
 * booked keys and `cancelled` reaches the account's other sessions; orders already matched,
 * expired or cancelled, and orders placed elsewhere, are untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOL, startTestVenue, Trader, USDC, type TestVenue } from '@nightjar/testkit';
import { disconnected, orderStatus, ProofGate } from './disconnect-helpers.js';
import { eventually, StreamClient } from './stream-client.js';

describe('cancel-on-disconnect', () => {
  let v: TestVenue;
  const gate = new ProofGate();
  beforeAll(async () => {
    v = await startTestVenue({
      orderRateLimit: { capacity: 1000, refillPerSecond: 1000 },
      // A proof check the test can hold open, to close a socket while a place is in flight.
      verifyInputProof: gate.verify,
    });
  });
  afterAll(async () => {
    await v.close();
  });

  const status = (token: string, orderId: string) => orderStatus(v, token, orderId);
  const setDefault = (token: string, value: boolean) =>
    v.client.send('/account/settings', {
      method: 'PUT',
      token,
      body: { cancel_on_disconnect_default: value },
    });
  /** Closes `c` and waits until the engine has finished with the session (its cancels are done). */
  const disconnect = (c: StreamClient) => disconnected(v, c);

  it('login flag: the session’s resting orders are cancelled on close and the other session hears of it', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const watcher = await StreamClient.login(v, token);
    await watcher.request({ op: 'subscribe', channels: ['orders'] });
    const c = await StreamClient.login(v, token, { cancel_on_disconnect: true });
    const resting = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    const cancelledFirst = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    const viaRestNote = await trader.deposit(USDC, 1_000_000_000n);
    const expiring = trader.order(await trader.deposit(USDC, 1_000_000_000n), {
      expiry_slot: BigInt(v.engine.context.chain.slot + 22),
    });
    for (const o of [resting, cancelledFirst, expiring])
      expect((await c.request({ op: 'order.place', params: o })).op).toBe('order.place');
    const viaRest = trader.order(viaRestNote);
    expect((await v.client.send('/orders', { token, body: viaRest })).status).toBe(202);
    await c.request({
      op: 'order.cancel',
      order_id: cancelledFirst.order_id,
      params: trader.cancelBody(cancelledFirst.order_id),
    });
    await v.advance(23);
    await watcher.find((f) => f.order_id === expiring.order_id && f.kind === 'expired');

    await disconnect(c);
    const event = await watcher.find((f) => f.order_id === resting.order_id);
    expect(event).toMatchObject({ channel: 'orders', kind: 'cancelled' });
    expect(await status(token, resting.order_id)).toBe('cancelled');
    expect(await status(token, viaRest.order_id)).toBe('pending');
    expect(await status(token, expiring.order_id)).toBe('expired');
    // Exactly one terminal event per order: nothing more for the ones already gone.
    const fence = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await v.client.send('/orders', { token, body: fence });
    await v.client.send(`/orders/${fence.order_id}`, {
      method: 'DELETE',
      token,
      body: trader.cancelBody(fence.order_id),
    });
    await watcher.find((f) => f.order_id === fence.order_id);
    const kinds = (id: string) =>
      watcher
        .events('orders')
        .filter((f) => f.order_id === id)
        .map((f) => f.kind);
    expect(kinds(cancelledFirst.order_id)).toEqual(['cancelled']);
    expect(kinds(expiring.order_id)).toEqual(['expired']);
    expect(kinds(resting.order_id)).toEqual(['cancelled']);
    expect(kinds(viaRest.order_id)).toEqual([]);
    expect(watcher.seqErrors).toEqual([]);
    await watcher.close();
  });

  it('matched orders (pending settlement) are untouched', async () => {
    // Priced above every other resting bid of this venue, so this bid is the one that matches.
    const alice = await v.newAccount();
    const bob = await v.newAccount();
    const buyer = v.trader();
    const seller = v.trader();
    const c = await StreamClient.login(v, alice.token, { cancel_on_disconnect: true });
    const bid = buyer.order(await buyer.deposit(USDC, Trader.required('bid', 1_000_000_000n, 190_000_000n)), {
      price_limit: 190_000_000n,
    });
    const ask = seller.order(await seller.deposit(SOL, Trader.required('ask', 1_000_000_000n, 0n)), {
      price_limit: 140_000_000n,
    });
    await c.request({ op: 'order.place', params: bid });
    expect((await v.client.send('/orders', { token: bob.token, body: ask })).status).toBe(202);
    await v.advance(1);
    expect(await status(alice.token, bid.order_id)).toBe('pending_settlement');
    await disconnect(c);
    expect(await status(alice.token, bid.order_id)).toBe('pending_settlement');
  });

  it('account default on: cancelled without a login flag; an explicit false at login wins', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    await setDefault(token, true);
    const byDefault = await StreamClient.login(v, token);
    const optedOut = await StreamClient.login(v, token, { cancel_on_disconnect: false });
    const a = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    const b = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await byDefault.request({ op: 'order.place', params: a });
    await optedOut.request({ op: 'order.place', params: b });
    await disconnect(byDefault);
    await disconnect(optedOut);
    expect(await status(token, a.order_id)).toBe('cancelled');
    expect(await status(token, b.order_id)).toBe('pending');
  });

  it('account default off and no flag: orders stay; the flag applies from the login that set it', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const c = await StreamClient.login(v, token);
    const before = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await c.request({ op: 'order.place', params: before });
    await c.request({ op: 'login', token, cancel_on_disconnect: true });
    const after = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await c.request({ op: 'order.place', params: after });
    await disconnect(c);
    expect(await status(token, before.order_id)).toBe('pending');
    expect(await status(token, after.order_id)).toBe('cancelled');
  });

  it('logout and a server-side close count as disconnects', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const c = await StreamClient.login(v, token, { cancel_on_disconnect: true });
    const o = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    await c.request({ op: 'order.place', params: o });
    await c.request({ op: 'logout' });
    await eventually(
      () => v.engine.context.streamHub.accountSocketCount(c.loginReply!.result.account_id) === 0,
      'logout',
    );
    expect(await status(token, o.order_id)).toBe('cancelled');
  });

  it('an order still verifying when the socket closes is cancelled once it books', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const watcher = await StreamClient.login(v, token);
    await watcher.request({ op: 'subscribe', channels: ['orders'] });
    const c = await StreamClient.login(v, token, { cancel_on_disconnect: true });
    const o = trader.order(await trader.deposit(USDC, 1_000_000_000n));
    gate.hold();
    c.send({ op: 'order.place', params: o });
    await eventually(() => gate.held === 1, 'the proof check to start');
    await disconnect(c);
    gate.release();
    expect(await watcher.find((f) => f.order_id === o.order_id)).toMatchObject({ kind: 'cancelled' });
    expect(await status(token, o.order_id)).toBe('cancelled');
    await watcher.close();
  });

  it('at most 32 order operations in flight per socket: the 33rd gets 1401 at once', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const note = await trader.deposit(USDC, 1_000_000_000n);
    const c = await StreamClient.login(v, token);
    gate.hold();
    for (let i = 0; i < 32; i++) c.send({ op: 'order.place', params: trader.order(note) });
    await eventually(() => gate.held === 32, 'the proof checks to start');
    expect(await c.request({ op: 'order.place', params: trader.order(note) })).toMatchObject({
      code: 1401,
      message: expect.stringMatching(/in flight/),
    });
    gate.release();
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    const unrequested = () =>
      c.frames.filter((f) => f.request_id === undefined && (f.op === 'order.place' || f.op === 'error'));
    await c.until(() => unrequested().length === 32, 'a reply to each held operation');
    await c.close();
  });
});
