/**
 * Recovers a wallet from its seed alone (hex in WALLET_SEED) and prints its notes and balances:
 * every fill memo on the ledger is trial-decrypted and verified against the tree.
 *
 *   WALLET_SEED=<64 hex> npx tsx examples/recover-wallet.ts
 */
import { createWallet, formatUnits, getBalances, syncWallet } from '@nightjar/sdk';
import { connect, dataDir } from './venue.js';

const seedHex = process.env.WALLET_SEED;
if (!seedHex || !/^[0-9a-f]{64,}$/i.test(seedHex))
  throw new Error('set WALLET_SEED to the wallet seed (hex)');
const wallet = createWallet({ seed: Uint8Array.from(Buffer.from(seedHex, 'hex')) });
const client = await connect(wallet, `${dataDir}/recover-state`);
try {
  const started = performance.now();
  const r = await syncWallet(client);
  console.log(
    `scanned ${r.memosScanned} memos, stored ${r.memosStored}, in ${Math.round(performance.now() - started)} ms`,
  );
  for (const n of wallet.unspentNotes()) console.log(n.mint, n.amount.toString(), n.state, n.commitment);
  const balances = await getBalances(client, { sync: false });
  for (const [mint, b] of Object.entries(balances))
    console.log(
      mint,
      'available',
      formatUnits(b.available, 0),
      'locked',
      b.locked,
      'pending',
      b.pendingSettlement,
    );
} finally {
  await client.close();
}
