/**
 * One deposit backs a five-level bid ladder: `placeOrders` splits it once into a note per order
 * (and the remainder). Then the orders are cancelled, their notes merged back, and an amount that
 * no note holds is withdrawn (split off first).
 *
 *   npm start &            # a local venue (dev mode)
 *   WALLET_PASSWORD=... npx tsx examples/ladder.ts
 */
import {
  cancelOrder,
  createWallet,
  deposit,
  formatUnits,
  getBalances,
  mergeCandidates,
  mergeNotes,
  placeOrders,
  withdraw,
} from '@nightjar/sdk';
import { connect, dataDir, waitForInclusion } from './venue.js';

const wallet = createWallet({
  path: `${dataDir}/ladder.wallet`,
  password: process.env.WALLET_PASSWORD ?? 'example only',
});
const client = await connect(wallet, `${dataDir}/ladder-state`);
try {
  const market = await client.instrument('SOL-USDC');
  const USDC = market.quote_mint;
  const usdc = (atomic: bigint) => `${formatUnits(atomic, market.quote_decimals)} USDC`;
  // Dev ledger only: fund the wallet's ledger account, then deposit once.
  await client.ledger.requestAirdrop({ owner: wallet.keys.funding.address, mint: USDC, amount: '800000000' });
  const { note } = await deposit(client, { mint: USDC, amount: '800' });
  console.log('deposited', usdc(note.amount), '- waiting for finality');
  await waitForInclusion(client, note.commitment);

  const { results, splits } = await placeOrders(client, {
    orders: ['149', '148', '147', '146', '145'].map((price) => ({
      symbol: 'SOL-USDC',
      side: 'bid' as const,
      amount: '1',
      price,
      expiry: { seconds: 300 },
    })),
    onProgress: (p) => console.log('  ladder:', p.stage),
  });
  console.log(`${splits.length} split(s):`, splits[0]?.notes.map((n) => usdc(n.amount)).join(', '));
  for (const r of results)
    console.log(r.status === 'success' ? `placed ${r.result.orderId}` : `failed: ${r.error.message}`);

  for (const r of results)
    if (r.status === 'success') await cancelOrder(client, { orderId: r.result.orderId });
  // The ladder's notes are free again: merge them, at most 4 per merge.
  while (mergeCandidates(client, { mint: USDC }).length >= 2) {
    const merged = await mergeNotes(client, { mint: USDC });
    console.log(`merged ${merged.spent.length} notes into`, usdc(merged.note.amount));
  }
  const out = await withdraw(client, { mint: USDC, amount: '12.34' });
  console.log('withdrew', usdc(out.note.amount), out.split ? '(split off a larger note first)' : '');
  console.log('balances', await getBalances(client));
} finally {
  await client.close();
}
