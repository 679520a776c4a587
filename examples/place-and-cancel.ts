/**
 * Deposit, place a bid, read it back, cancel it.
 *
 *   npm start &            # a local venue (dev mode)
 *   WALLET_PASSWORD=... npx tsx examples/place-and-cancel.ts
 */
import { cancelOrder, createWallet, deposit, getBalances, getOrder, placeOrder } from '@nightjar/sdk';
import { connect, dataDir, waitForInclusion } from './venue.js';

const wallet = createWallet({
  path: `${dataDir}/example.wallet`,
  password: process.env.WALLET_PASSWORD ?? 'example only',
});
const client = await connect(wallet, `${dataDir}/example-state`);
try {
  const market = await client.instrument('SOL-USDC');
  // Dev ledger only: fund the wallet's ledger account, then deposit into the vault.
  await client.ledger.requestAirdrop({
    owner: wallet.keys.funding.address,
    mint: market.quote_mint,
    amount: '1000000000',
  });
  const { note } = await deposit(client, { mint: market.quote_mint, amount: '200' });
  console.log('deposited note', note.commitment, '- waiting for finality');
  await waitForInclusion(client, note.commitment);

  const { orderId } = await placeOrder(client, {
    symbol: 'SOL-USDC',
    side: 'bid',
    amount: '1',
    price: '100',
    expiry: { seconds: 120 },
  });
  console.log('placed', orderId, await getOrder(client, { orderId }));
  console.log('balances', await getBalances(client));
  console.log('cancelled', await cancelOrder(client, { orderId }));
} finally {
  await client.close();
}
