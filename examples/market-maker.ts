/**
 * A small market maker: one deposit per side backs a two-sided ladder, three levels a side, placed
 * with placeOrders (the first ladder splits each deposit into a note per order). Every few seconds
 * it cancels what is left of the ladder and quotes it anew around the moved price: the cancelled
 * orders' notes back the new ones, and placeOrders splits or merges notes only for the orders no
 * free note covers. Reports fills from the stream; Ctrl-C stops it and cancels.
 *
 *   WALLET_PASSWORD=... npx tsx examples/market-maker.ts
 *
 * NIGHTJAR_EXAMPLE_ROUNDS bounds the quoting rounds (default 30).
 */
import { cancelOrder, createStream, deposit, getBalances, placeOrders, requestFaucet } from '@nightjar/sdk';
import { connect, openWallet, sleep } from './venue.js';

const SYMBOL = 'SOL-USDC';
const LEVELS = 3;
const ROUNDS = Number(process.env.NIGHTJAR_EXAMPLE_ROUNDS ?? 30);
const wallet = openWallet('market-maker');
const client = await connect('market-maker', wallet);

// Dev ledger only: the faucet funds the wallet's ledger account; then one deposit per side, each
// resolving once its note can back orders.
await requestFaucet(client, { asset: 'USDC', amount: '1000' });
await requestFaucet(client, { asset: 'SOL', amount: '10' });
await deposit(client, { asset: 'USDC', amount: '1000' });
await deposit(client, { asset: 'SOL', amount: '10' });

const stream = await createStream(client, { channels: ['orders', 'fills'], cancelOnDisconnect: true });
stream.on('order', ({ event }) => console.log('order', event.order_id.slice(0, 8), event.kind));
stream.on('fill', ({ event, stored }) =>
  console.log('fill memo', event.order_id.slice(0, 8), stored ? 'stored' : 'pending'),
);
stream.on('disconnected', ({ reason }) => console.log('stream lost:', reason, '- reconnecting'));
stream.on('reconnected', ({ downtimeMs }) => console.log(`stream back after ${downtimeMs} ms, resynced`));

/** Cancels orders that may still rest; one that filled or expired meanwhile is skipped. */
const cancelAll = (ids: string[]) =>
  Promise.all(ids.map((orderId) => cancelOrder(client, { orderId }).catch(() => undefined)));

let live: string[] = [];
let running = true;
process.on('SIGINT', () => (running = false));

for (let step = 0; running && step < ROUNDS; step++) {
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
  const balances = await getBalances(client, { by: 'symbol' });
  for (const [symbol, b] of Object.entries(balances))
    console.log(`  ${symbol}: available ${b.formatted.available}, locked ${b.formatted.locked}`);
  if (step + 1 < ROUNDS) await sleep(3_000);
}
await cancelAll(live);
console.log(`stopped: ${live.length} orders cancelled`);
await stream.close();
await client.close();
