import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '@nightjar/testkit';

describe('orders over HTTPS', () => {
  let v: TestVenue;
  let token: string;
  let alice: Trader;
  let usdc: Note;

  beforeAll(async () => {
    v = await startTestVenue({ orderRateLimit: { capacity: 1000, refillPerSecond: 1000 } });
    ({ token } = await v.newAccount());
    alice = v.trader();
    usdc = await alice.deposit(USDC, 10_000_000_000n);
  });
  afterAll(async () => {
    await v.close();
  });

  const place = (body: object, t = token) => v.client.send('/orders', { token: t, body });

  it('accepts a valid order with 202 and shows it as pending', async () => {
    const body = alice.order(usdc);
    const r = await place(body);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      order_id: body.order_id,
      status: 'accepted',
      arrival_slot: v.engine.context.chain.slot,
    });
    const got = await v.client.send(`/orders/${body.order_id}`, { token });
    expect(got.body).toMatchObject({
      order_id: body.order_id,
      symbol: 'SOL-USDC',
      side: 'bid',
      status: 'pending',
      amount: 1_000_000_000,
      filled_quantity: 0,
    });
    const open = await v.client.send('/account/orders', { token });
    expect(Array.isArray(open.body)).toBe(true);
    expect(open.body.map((o: { order_id: string }) => o.order_id)).toContain(body.order_id);
    // Idempotent re-send of the very same signed order: the original 202.
    const again = await place(body);
    expect([again.status, again.body]).toEqual([202, r.body]);
    // The same id for a different order: 1201. The same note again: 1204.
    const other = alice.order(usdc, { order_id: body.order_id, price_limit: 149_000_000n });
    expect((await place(other)).body.code).toBe(1201);
    expect((await place(alice.order(usdc))).body.code).toBe(1204);
    await v.client.send(`/orders/${body.order_id}`, {
      token,
      method: 'DELETE',
      body: alice.cancelBody(body.order_id),
    });
  });

  it('reports the engine-side intake codes', async () => {
    const note = await alice.deposit(USDC, 1_000_000_000n);
    expect((await place(alice.order(note, { merkle_root: '01'.repeat(32) }))).body.code).toBe(1010);
    expect((await place(alice.order(note, { valid_input_proof: 'ee'.repeat(256) }))).body.code).toBe(1011);
    expect((await place(alice.order(note, { session_id: 'ab'.repeat(32) }))).body.code).toBe(1205);
    const ok = alice.order(note);
    expect((await place(ok)).status).toBe(202);
    // Nonce must advance per trading key.
    const stale = alice.order(await alice.deposit(USDC, 1_000_000_000n), { arrival_nonce: ok.arrival_nonce });
    expect((await place(stale)).body).toMatchObject({ code: 1202 });
    expect((await place(alice.order(note, { symbol: 'BTC-USDC' }))).status).toBe(404);
  });

  it('requires a bearer token and hides other accounts’ orders', async () => {
    const body = alice.order(await alice.deposit(USDC, 1_000_000_000n));
    expect((await v.client.send('/orders', { body })).status).toBe(401);
    expect((await place(body)).status).toBe(202);
    const stranger = await v.newAccount();
    const foreign = await v.client.send(`/orders/${body.order_id}`, { token: stranger.token });
    const unknown = await v.client.send(`/orders/${'ab'.repeat(16)}`, { token: stranger.token });
    expect([foreign.status, foreign.body]).toEqual([unknown.status, unknown.body]);
    expect(foreign.status).toBe(404);
    expect((await v.client.send('/orders/xyz', { token })).body.code).toBe(1001);
  });

  it('cancel: signature, ownership, session, nonce, then 404 once gone', async () => {
    const body = alice.order(await alice.deposit(USDC, 1_000_000_000n));
    await place(body);
    const path = `/orders/${body.order_id}`;
    const bad = { ...alice.cancelBody(body.order_id), trading_key_signature: 'aa'.repeat(64) };
    expect((await v.client.send(path, { token, method: 'DELETE', body: bad })).body.code).toBe(1102);
    const mallory = v.trader();
    expect(
      (await v.client.send(path, { token, method: 'DELETE', body: mallory.cancelBody(body.order_id) })).body
        .code,
    ).toBe(1103);
    expect(
      (
        await v.client.send(path, {
          token,
          method: 'DELETE',
          body: alice.cancelBody(body.order_id, { session_id: 'cd'.repeat(32) }),
        })
      ).body.code,
    ).toBe(1205);
    const ok = await v.client.send(path, { token, method: 'DELETE', body: alice.cancelBody(body.order_id) });
    expect([ok.status, ok.body]).toEqual([200, { order_id: body.order_id, status: 'cancelled' }]);
    expect(
      (
        await v.client.send(path, {
          token,
          method: 'DELETE',
          body: alice.cancelBody(body.order_id, { cancel_nonce: 1n }),
        })
      ).body.code,
    ).toBe(1202);
    expect(
      (await v.client.send(path, { token, method: 'DELETE', body: alice.cancelBody(body.order_id) })).status,
    ).toBe(404);
    expect((await v.client.send(path, { token })).body.status).toBe('cancelled');
    // The note is free again.
    expect(
      (
        await place(
          alice.order(
            { ...usdc, commitment: body.note_commitment, amount: body.collateral_amount! } as Note,
            {
              owner_commitment: body.owner_commitment,
              note_inner_hash: body.note_inner_hash,
            },
          ),
        )
      ).status,
    ).toBe(202);
  });

  it('modify: reprice in place, replace with a new id, 1203, and nothing changes on failure', async () => {
    const note = await alice.deposit(USDC, 2_000_000_000n);
    const first = alice.order(note);
    await place(first);
    const repriced = alice.order(note, { order_id: first.order_id, price_limit: 149_000_000n });
    const r1 = await v.client.send(`/orders/${first.order_id}`, {
      token,
      method: 'PUT',
      body: alice.modifyBody(first.order_id, repriced),
    });
    expect(r1.status).toBe(202);
    expect(r1.body).toMatchObject({
      order_id: first.order_id,
      status: 'accepted',
      replaced_order_id: first.order_id,
    });
    expect((await v.client.send(`/orders/${first.order_id}`, { token })).body.price_limit).toBe(149_000_000);

    const other = alice.order(await alice.deposit(USDC, 1_000_000_000n));
    await place(other);
    const clash = alice.order(note, { order_id: other.order_id });
    expect(
      (
        await v.client.send(`/orders/${first.order_id}`, {
          token,
          method: 'PUT',
          body: alice.modifyBody(first.order_id, clash),
        })
      ).body.code,
    ).toBe(1203);
    const badProof = alice.order(note, { valid_input_proof: 'ee'.repeat(256) });
    expect(
      (
        await v.client.send(`/orders/${first.order_id}`, {
          token,
          method: 'PUT',
          body: alice.modifyBody(first.order_id, badProof),
        })
      ).body.code,
    ).toBe(1011);
    expect((await v.client.send(`/orders/${first.order_id}`, { token })).body.status).toBe('pending');

    const moved = alice.order(note, { price_limit: 148_000_000n });
    const r2 = await v.client.send(`/orders/${first.order_id}`, {
      token,
      method: 'PUT',
      body: alice.modifyBody(first.order_id, moved),
    });
    expect(r2.body).toMatchObject({ order_id: moved.order_id, replaced_order_id: first.order_id });
    expect((await v.client.send(`/orders/${first.order_id}`, { token })).body.status).toBe('cancelled');
    expect((await v.client.send(`/orders/${moved.order_id}`, { token })).body.status).toBe('pending');
  });

  it('matches crossing orders at the next slot: both reserved for settlement', async () => {
    const bob = v.trader();
    const sol = await bob.deposit(SOL, Trader.required('ask', 1_000_000_000n, 0n));
    const bid = alice.order(await alice.deposit(USDC, Trader.required('bid', 1_000_000_000n, 150_000_000n)), {
      price_limit: 150_000_000n,
    });
    const ask = bob.order(sol, { price_limit: 140_000_000n });
    const bobAccount = await v.newAccount();
    expect((await place(bid)).status).toBe(202);
    expect((await v.client.send('/orders', { token: bobAccount.token, body: ask })).status).toBe(202);
    await v.advance(1);
    // Alice has older bids at the same price: price then arrival priority gives the ask to the oldest.
    expect((await v.client.send(`/orders/${ask.order_id}`, { token: bobAccount.token })).body.status).toBe(
      'pending_settlement',
    );
    const mine = (await v.client.send('/account/orders', { token })).body as {
      status: string;
      price_limit: number;
      arrival_slot: number;
    }[];
    const reserved = mine.filter((o) => o.status === 'pending_settlement');
    expect(reserved).toHaveLength(1);
    const best = mine.filter((o) => o.price_limit >= 150_000_000).map((o) => o.arrival_slot);
    expect(reserved[0]!.arrival_slot).toBe(Math.min(...best));
  });

  it('ioc that does not fill leaves as cancelled; orders expire at their slot', async () => {
    const ioc = alice.order(await alice.deposit(USDC, 1_000_000_000n), {
      order_type: 'ioc',
      price_limit: 1_000n,
    });
    await place(ioc);
    await v.advance(1);
    expect((await v.client.send(`/orders/${ioc.order_id}`, { token })).body.status).toBe('cancelled');
    const slot = BigInt(v.engine.context.chain.slot);
    const short = alice.order(await alice.deposit(USDC, 1_000_000_000n), {
      price_limit: 1_000n,
      expiry_slot: BigInt(v.engine.context.chain.slot) + 25n,
    });
    expect(slot).toBeGreaterThan(0n);
    await place(short);
    await v.advance(26);
    expect((await v.client.send(`/orders/${short.order_id}`, { token })).body.status).toBe('expired');
  });
});
