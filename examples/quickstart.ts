import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  createAccount,
  createClient,
  createStream,
  createWallet,
  deposit,
  isTerminal,
  placeOrder,
  requestFaucet,
} from '@nightjar/sdk';

// `npm start` writes what a client pins into .nightjar/ready.json.
const dir = process.env.NIGHTJAR_DATA_DIR ?? '.nightjar';
const ready = JSON.parse(readFileSync(`${dir}/ready.json`, 'utf8'));
const venue = {
  baseUrl: ready.base_url,
  pinnedRoot: readFileSync(ready.platform_root), // the platform's root certificate (DER)
  composeHash: ready.compose_hash,
  ledgerUrl: ready.ledger_url,
  ledgerDevSecret: ready.ledger_dev_secret, // a dev ledger's faucet needs it
};
// Your own trading account, made once with the local venue's dev admin and kept beside the wallet.
const accountFile = `${dir}/first-trade.account.json`;
if (!existsSync(accountFile)) {
  const admin = await createClient({ ...venue, credentials: ready.admin });
  const account = await createAccount(admin, { label: 'first-trade' });
  writeFileSync(accountFile, JSON.stringify(account), { mode: 0o600 });
  await admin.close();
}
// The wallet file is created on the first run and reopened (same password) on the next.
const wallet = createWallet({
  path: `${dir}/first-trade.wallet`,
  password: process.env.WALLET_PASSWORD ?? 'change me',
});
const client = await createClient({
  ...venue,
  credentials: JSON.parse(readFileSync(accountFile, 'utf8')),
  wallet,
  stateDir: `${dir}/first-trade-state`, // durable nonces
});
try {
  await requestFaucet(client, { asset: 'USDC', amount: '200' }); // dev venues only
  await deposit(client, { asset: 'USDC', amount: '200' }); // resolves once the note can back an order
  const stream = await createStream(client, { channels: ['orders'] });
  const order = {
    symbol: 'SOL-USDC',
    side: 'bid',
    amount: '1',
    price: '155',
    expiry: { seconds: 60 },
  } as const;
  const { orderId } = await placeOrder(client, order);
  for await (const e of stream) {
    if (e.type === 'error') throw e.error;
    if (e.type !== 'order' || e.event.order_id !== orderId) continue;
    console.log(e.event.kind);
    if (isTerminal(e.event.kind)) break; // fully_filled, cancelled, expired...
  }
} finally {
  await client.close();
}
