/**
 * Faucet, deposit, place a bid, read it back, cancel it.
 *
 *   npm start &            # a local venue (dev mode)
 *   WALLET_PASSWORD=... npx tsx examples/place-and-cancel.ts
 */
import { cancelOrder, deposit, getBalances, getOrder, placeOrder, requestFaucet } from '@nightjar/sdk';
import { connect, openWallet } from './venue.js';

const wallet = openWallet('place-and-cancel');
const client = await connect('place-and-cancel', wallet);
try {
  // Dev ledger only: the faucet funds the wallet's ledger account; the deposit makes a note of it
  // and resolves once the note can back an order (about 13 s: the venue's tree follows finality).
  await requestFaucet(client, { asset: 'USDC', amount: '200' });
  const { note } = await deposit(client, { asset: 'USDC', amount: '200' });
  console.log('deposited note', note.commitment);

  const { orderId } = await placeOrder(client, {
    symbol: 'SOL-USDC',
    side: 'bid',
    amount: '1',
    price: '100',
    expiry: { seconds: 120 },
  });
  console.log('placed', orderId, (await getOrder(client, { orderId })).status);
  const { USDC } = await getBalances(client, { by: 'symbol' });
  console.log('USDC locked', USDC?.formatted.locked, 'available', USDC?.formatted.available);
  console.log('cancelled', (await cancelOrder(client, { orderId })).status);
} finally {
  await client.close();
}
