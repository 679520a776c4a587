/**
 * Faucet, deposit, place a bid, read it back, reprice it, cancel it.
 *
 *   npm start &            # a local venue (dev mode)
 *   WALLET_PASSWORD=... npx tsx examples/place-and-cancel.ts
 */
import {
  cancelOrder,
  deposit,
  getBalances,
  getInstruments,
  getOpenOrders,
  getOrder,
  getTime,
  modifyOrder,
  placeOrder,
  requestFaucet,
  syncWallet,
} from '@nightjar/sdk';
import { connect, openWallet } from './venue.js';

const wallet = openWallet('place-and-cancel');
const client = await connect('place-and-cancel', wallet);
try {
  const markets = (await getInstruments(client)).map((m) => m.symbol).join(', ');
  const { slot } = await getTime(client);
  console.log(`markets ${markets} at slot ${slot}`);
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
  console.log('placed', orderId, (await getOrder(client, { orderId })).state);
  // Reprice in place (same id, same note): a cancel-and-replace in one step.
  await modifyOrder(client, { orderId, newOrderId: orderId, side: 'bid', amount: '1', price: '99.5' });
  console.log('open orders', (await getOpenOrders(client)).length);
  await syncWallet(client); // the ledger's word on the wallet's notes (getBalances syncs by default)
  const { USDC } = await getBalances(client, { by: 'symbol', sync: false });
  console.log('USDC locked', USDC?.formatted.locked, 'available', USDC?.formatted.available);
  console.log('cancelled', (await cancelOrder(client, { orderId })).status);
} finally {
  await client.close();
}
