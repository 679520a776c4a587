/**
 * A small market maker: quotes one bid and one ask around a reference price, reprices them with
 * modifyOrder every few seconds, and reports fills from the stream. Ctrl-C stops it and cancels.
 *
 *   WALLET_PASSWORD=... npx tsx examples/market-maker.ts
 */
import {
  cancelOrder,
  createStream,
  createWallet,
  deposit,
  getBalances,
  InsufficientNotesError,
  modifyOrder,
  OrderNotModifiableError,
  placeOrder,
  type PlaceOrderReturnType,
} from '@nightjar/sdk';
import { connect, dataDir, sleep, waitForInclusion } from './venue.js';

const SYMBOL = 'SOL-USDC';
const wallet = createWallet({
  path: `${dataDir}/mm.wallet`,
  password: process.env.WALLET_PASSWORD ?? 'example only',
});
const client = await connect(wallet, `${dataDir}/mm-state`);
const market = await client.instrument(SYMBOL);

// Dev ledger only: fund and deposit a few notes on each side.
await client.ledger.requestAirdrop({
  owner: wallet.keys.funding.address,
  mint: market.quote_mint,
  amount: '10000000000',
});
await client.ledger.requestAirdrop({
  owner: wallet.keys.funding.address,
  mint: market.base_mint,
  amount: '100000000000',
});
const notes = [
  (await deposit(client, { mint: market.quote_mint, amount: '1000' })).note,
  (await deposit(client, { mint: market.base_mint, amount: '5' })).note,
];
for (const n of notes) await waitForInclusion(client, n.commitment);

const stream = await createStream(client, { channels: ['orders', 'fills'], cancelOnDisconnect: true });
stream.on('order', ({ event }) => console.log('order', event.order_id.slice(0, 8), event.kind));
stream.on('fill', ({ event, stored }) =>
  console.log('fill memo', event.order_id.slice(0, 8), stored ? 'stored' : 'pending'),
);
stream.on('resync', ({ reason }) => console.log('stream resynced after', reason));

/**
 * Reprices a quote, or places a new one when there is none or the old one is no longer resting
 * (it filled, or was cancelled): modifyOrder says so with OrderNotModifiableError.
 */
async function quote(
  current: PlaceOrderReturnType | undefined,
  side: 'bid' | 'ask',
  price: string,
): Promise<PlaceOrderReturnType> {
  if (current) {
    try {
      return await modifyOrder(client, { orderId: current.orderId, side, amount: '1', price });
    } catch (err) {
      if (!(err instanceof OrderNotModifiableError)) throw err;
      console.log(`${side} ${current.orderId.slice(0, 8)} is ${err.status}: quoting anew`);
    }
  }
  return placeOrder(client, { symbol: SYMBOL, side, amount: '1', price });
}

let bid: PlaceOrderReturnType | undefined;
let ask: PlaceOrderReturnType | undefined;
let running = true;
process.on('SIGINT', () => (running = false));

for (let step = 0; running && step < 30; step++) {
  const mid = 150 + Math.sin(step / 3) * 2;
  const bidPx = (Math.floor(mid * 100 - 50) / 100).toFixed(2);
  const askPx = (Math.ceil(mid * 100 + 50) / 100).toFixed(2);
  try {
    bid = await quote(bid, 'bid', bidPx);
    ask = await quote(ask, 'ask', askPx);
    console.log(`quoting ${bidPx} / ${askPx}`, await getBalances(client));
  } catch (err) {
    // NotesPendingError (a fresh change note the venue's tree has not got yet) is one of these.
    if (err instanceof InsufficientNotesError) console.log('out of notes:', err.message);
    else throw err;
  }
  await sleep(3_000);
}
for (const o of [bid, ask]) if (o) await cancelOrder(client, { orderId: o.orderId }).catch(() => undefined);
await stream.close();
await client.close();
