/**
 * Recovers a wallet from its seed alone and prints its notes and balances: every fill memo on the
 * ledger is trial-decrypted and verified against the tree, and its deposits are found again.
 * The seed: WALLET_SEED (hex), or else the seed of another example's wallet file
 * (RECOVER_FROM, default `place-and-cancel`, opened with WALLET_PASSWORD).
 *
 *   WALLET_SEED=<64 hex> npx tsx examples/recover-wallet.ts
 */
import { createWallet, formatUnits, getAssets, getBalances, syncWallet } from '@nightjar/sdk';
import { connect, openWallet } from './venue.js';

const seedHex = process.env.WALLET_SEED;
if (seedHex !== undefined && !/^[0-9a-f]{64,}$/i.test(seedHex))
  throw new Error('WALLET_SEED must be the wallet seed in hex (64 digits or more)');
const seed = seedHex
  ? Uint8Array.from(Buffer.from(seedHex, 'hex'))
  : openWallet(process.env.RECOVER_FROM ?? 'place-and-cancel').seed;
const wallet = createWallet({ seed }); // memory only: nothing but the seed
const client = await connect('recover-wallet', wallet);
try {
  const started = performance.now();
  const r = await syncWallet(client);
  console.log(
    `scanned ${r.memosScanned} memos, stored ${r.memosStored}, in ${Math.round(performance.now() - started)} ms`,
  );
  const assets = new Map((await getAssets(client)).map((a) => [a.mint, a]));
  for (const n of wallet.unspentNotes()) {
    const a = assets.get(n.mint);
    console.log(a ? `${formatUnits(n.amount, a.decimals)} ${a.symbol}` : `${n.amount} of ${n.mint}`, n.state);
  }
  const balances = await getBalances(client, { sync: false, by: 'symbol' });
  for (const [symbol, b] of Object.entries(balances))
    console.log(
      symbol,
      'available',
      b.formatted.available,
      'locked',
      b.formatted.locked,
      'pending settlement',
      b.formatted.pendingSettlement,
    );
} finally {
  await client.close();
}
