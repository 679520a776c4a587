/**
 * Issue 16 item 2: a bid whose fill takes its whole 1-unit note leaves a zero change note under a
 * remainder that still needs collateral (DESIGN 4: max(nominal + fee, 1) = 1). Planning used to
 * throw on it, so both orders ended `settlement_failed`, and such a bid could fail the best ask
 * at every tick. Now the bid ends with its fill (remainder cancelled) and the honest ask settles.
 * Orders over HTTPS and the stream, events over the stream, effects read on the ledger.
 */
import { afterEach, expect, it } from 'vitest';
import { decryptFillMemo, deriveNote } from '@nightjar/crypto';
import { bytesToHex, fieldToHex, hexToBytes, parseAddress } from '@nightjar/protocol';
import { SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '@nightjar/testkit';
import { StreamClient, type Frame } from '../stream/stream-client.js';

const MIN_ORDER = 1_000_000n; // the dev market's min_order_size
const TICK = 1_000n; // its tick_size (price_scale 1e9, fee 10 bps)

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

const nullifierOf = (note: Note) =>
  fieldToHex(
    deriveNote({
      mint: parseAddress(note.mint)!,
      amount: note.amount,
      ownerCommitment: BigInt('0x' + note.ownerCommitment),
      noteInnerHash: BigInt('0x' + note.innerHash),
    }).nullifier,
  );

it('a cheap bid whose remainder its zero change cannot back: the honest ask fully fills, the bid ends cancelled with its fill', async () => {
  const v = (venue = await startTestVenue({ settle: true }));
  const honest = await v.newAccount();
  const cheap = await v.newAccount();
  const [seller, buyer] = [v.trader(), v.trader()];
  const watch = async (token: string) => {
    const s = await StreamClient.login(v, token);
    await s.request({ op: 'subscribe', channels: ['orders', 'fills'] });
    return s;
  };
  const [sellerStream, buyerStream] = [await watch(honest.token), await watch(cheap.token)];

  // The honest ask: min_order_size at price 0 (any price), exact collateral, over HTTPS.
  const sol = await seller.deposit(SOL, Trader.required('ask', MIN_ORDER, 0n));
  const ask = seller.order(sol, { amount: MIN_ORDER, price_limit: 0n });
  expect((await v.client.send('/orders', { token: honest.token, body: ask })).status).toBe(202);
  // The cheap bid: 1.5 × min at one tick needs floor(1.5) = 1 quote unit; over the stream.
  const bidAmount = (3n * MIN_ORDER) / 2n;
  expect(Trader.required('bid', bidAmount, TICK)).toBe(1n);
  const usdc = await buyer.deposit(USDC, 1n);
  const bid = buyer.order(usdc, { amount: bidAmount, price_limit: TICK });
  expect(await buyerStream.request({ op: 'order.place', params: bid })).toMatchObject({
    op: 'order.place',
    result: { status: 'accepted' },
  });

  const terminal = (s: StreamClient, id: string) => () =>
    s.events('orders').some((f) => f.order_id === id && f.kind !== 'pending_settlement');
  for (
    let i = 0;
    i < 600 && !(terminal(sellerStream, ask.order_id)() && terminal(buyerStream, bid.order_id)());
    i++
  ) {
    await v.advance(1);
    await new Promise((r) => setTimeout(r, 15));
  }
  const events = (s: StreamClient, id: string) => s.events('orders').filter((f: Frame) => f.order_id === id);
  expect(events(sellerStream, ask.order_id).map((f) => f.kind)).toEqual([
    'pending_settlement',
    'fully_filled',
  ]);
  expect(events(sellerStream, ask.order_id).at(-1)).toMatchObject({ filled_quantity: Number(MIN_ORDER) });
  expect(events(buyerStream, bid.order_id).map((f) => f.kind)).toEqual(['pending_settlement', 'cancelled']);
  expect(events(buyerStream, bid.order_id).at(-1)).toMatchObject({
    filled_quantity: Number(MIN_ORDER),
    match_id: '1',
  });
  const look = async (token: string, id: string) => (await v.client.send(`/orders/${id}`, { token })).body;
  expect(await look(honest.token, ask.order_id)).toMatchObject({
    status: 'empty',
    filled_quantity: Number(MIN_ORDER),
  });
  expect(await look(cheap.token, bid.order_id)).toMatchObject({
    status: 'cancelled',
    filled_quantity: Number(MIN_ORDER),
  });

  // On the ledger: both inputs consumed; the seller got 1 quote unit, the buyer min_order_size
  // base and no change note; value per mint conserved.
  const states = await v.ledger.getNoteStatuses({ nullifiers: [nullifierOf(sol), nullifierOf(usdc)] });
  expect(states.map((s) => s.state)).toEqual(['spent', 'spent']);
  const memo = (s: StreamClient, t: Trader, id: string) =>
    decryptFillMemo(t.viewing.privateKey, hexToBytes(s.events('fills').find((f) => f.order_id === id)!.memo));
  const sellerMemo = memo(sellerStream, seller, ask.order_id);
  const buyerMemo = memo(buyerStream, buyer, bid.order_id);
  expect(bytesToHex(buyerMemo.orderId)).toBe(bid.order_id);
  expect([sellerMemo.tradeAmount, sellerMemo.changeAmount, sellerMemo.feeAmount]).toEqual([1n, 0n, 1_000n]);
  expect([buyerMemo.tradeAmount, buyerMemo.changeAmount, buyerMemo.feeAmount]).toEqual([MIN_ORDER, 0n, 0n]);
  const solvency = await v.ledger.getSolvency();
  for (const m of solvency.mints) expect(m.vault_balance).toBe(m.outstanding_note_value);
  expect(sellerStream.seqErrors).toEqual([]);
  await sellerStream.close();
  await buyerStream.close();
}, 30_000);
