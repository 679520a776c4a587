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

let bid: PlaceOrderReturnType | undefined;
let ask: PlaceOrderReturnType | undefined;
let running = true;
process.on('SIGINT', () => (running = false));

for (let step = 0; running && step < 30; step++) {
  const mid = 150 + Math.sin(step / 3) * 2;
  const bidPx = (Math.floor(mid * 100 - 50) / 100).toFixed(2);
  const askPx = (Math.ceil(mid * 100 + 50) / 100).toFixed(2);
  try {
    bid = bid
      ? await modifyOrder(client, { orderId: bid.orderId, side: 'bid', amount: '1', price: bidPx })
      : await placeOrder(client, { symbol: SYMBOL, side: 'bid', amount: '1', price: bidPx });
    ask = ask
      ? await modifyOrder(client, { orderId: ask.orderId, side: 'ask', amount: '1', price: askPx })
      : await placeOrder(client, { symbol: SYMBOL, side: 'ask', amount: '1', price: askPx });
    console.log(`quoting ${bidPx} / ${askPx}`, await getBalances(client));
  } catch (err) {
    if (err instanceof InsufficientNotesError) console.log('out of notes:', err.message);
    else throw err;
  }
  await sleep(3_000);
}
for (const o of [bid, ask]) if (o) await cancelOrder(client, { orderId: o.orderId }).catch(() => undefined);
await stream.close();
await client.close();
