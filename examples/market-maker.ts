/**
 * A small market maker: one deposit per side backs a two-sided ladder, three levels a side, placed
 * with placeOrders (the first ladder splits each deposit into a note per order). Every few seconds
 * it cancels what is left of the ladder and quotes it anew around the moved price: the cancelled
 * orders' notes back the new ones, and placeOrders splits or merges notes only for the orders no
 * free note covers. Reports fills from the stream; Ctrl-C stops it and cancels.
 *
 *   WALLET_PASSWORD=... npx tsx examples/market-maker.ts
 */
import { cancelOrder, createStream, createWallet, deposit, getBalances, placeOrders } from '@nightjar/sdk';
import { connect, dataDir, sleep, waitForInclusion } from './venue.js';

const SYMBOL = 'SOL-USDC';
const LEVELS = 3;
const wallet = createWallet({
  path: `${dataDir}/mm.wallet`,
  password: process.env.WALLET_PASSWORD ?? 'example only',
});
const client = await connect(wallet, `${dataDir}/mm-state`);
const market = await client.instrument(SYMBOL);

// Dev ledger only: fund the wallet's ledger account, then deposit once per side.
const owner = wallet.keys.funding.address;
await client.ledger.requestAirdrop({ owner, mint: market.quote_mint, amount: '1000000000' }); // 1,000 USDC
await client.ledger.requestAirdrop({ owner, mint: market.base_mint, amount: '10000000000' }); // 10 SOL
const notes = [
  (await deposit(client, { mint: market.quote_mint, amount: '1000' })).note,
  (await deposit(client, { mint: market.base_mint, amount: '10' })).note,
];
for (const n of notes) await waitForInclusion(client, n.commitment);

const stream = await createStream(client, { channels: ['orders', 'fills'], cancelOnDisconnect: true });
stream.on('order', ({ event }) => console.log('order', event.order_id.slice(0, 8), event.kind));
stream.on('fill', ({ event, stored }) =>
  console.log('fill memo', event.order_id.slice(0, 8), stored ? 'stored' : 'pending'),
);
stream.on('resync', ({ reason }) => console.log('stream resynced after', reason));

/** Cancels orders that may still rest; one that filled or expired meanwhile is skipped. */
const cancelAll = (ids: string[]) =>
  Promise.all(ids.map((orderId) => cancelOrder(client, { orderId }).catch(() => undefined)));

let live: string[] = [];
let running = true;
process.on('SIGINT', () => (running = false));

for (let step = 0; running && step < 30; step++) {
  const mid = 150 + Math.sin(step / 3) * 2;
  await cancelAll(live);
  // Level k sits 0.5 + 0.5k from the mid on each side.
  const orders = Array.from({ length: LEVELS }, (_, k) =>
    (['bid', 'ask'] as const).map((side) => ({
      symbol: SYMBOL,
      side,
      amount: '1',
      price: (side === 'bid' ? mid - 0.5 - 0.5 * k : mid + 0.5 + 0.5 * k).toFixed(2),
      expiry: { seconds: 60 },
    })),
  ).flat();
  const { results, splits } = await placeOrders(client, { orders });
  live = results.flatMap((r) => (r.status === 'success' ? [r.result.orderId] : []));
  for (const r of results) if (r.status === 'failure') console.log('not placed:', r.error.message);
  console.log(`quoting around ${mid.toFixed(2)}: ${live.length} orders, ${splits.length} split(s)`);
  console.log(await getBalances(client));
  await sleep(3_000);
}
await cancelAll(live);
await stream.close();
await client.close();
