/**
 * One deposit backs a five-level bid ladder: `placeOrders` splits it once into a note per order
 * (and the remainder). Then the orders are cancelled (`cancelAll`), their notes merged back, a note
 * split and joined by hand, and an amount that no note holds is withdrawn to a fresh address in one
 * transaction (the rest of the note comes back as a change note).
 *
 *   npm start &            # a local venue (dev mode)
 *   WALLET_PASSWORD=... npx tsx examples/ladder.ts
 */
import {
  cancelAll,
  deposit,
  formatUnits,
  getBalances,
  joinSplit,
  mergeCandidates,
  mergeNotes,
  placeOrders,
  requestFaucet,
  resolveAsset,
  splitNote,
  withdraw,
} from '@nightjar/sdk';
import { connect, freshRecipient, openWallet } from './venue.js';

const wallet = openWallet('ladder');
const client = await connect('ladder', wallet);
try {
  const USDC = await resolveAsset(client, 'USDC'); // { symbol, mint, decimals }
  const usdc = (atomic: bigint) => `${formatUnits(atomic, USDC.decimals)} USDC`;
  // Dev ledger only: the faucet funds the wallet's ledger account; one deposit, usable when it resolves.
  await requestFaucet(client, { asset: 'USDC', amount: '800' });
  const { note } = await deposit(client, { asset: 'USDC', amount: '800' });
  console.log('deposited', usdc(note.amount));

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

  // Every live order of this account in the market, in one call (each cancel signed on its own).
  const { cancelled, failed } = await cancelAll(client, { symbol: 'SOL-USDC' });
  console.log(`cancelled ${cancelled.length}, refused ${failed.length}`);
  // The ladder's notes are free again: merge them, at most 4 per merge.
  while (mergeCandidates(client, { mint: USDC.mint }).length >= 2) {
    const merged = await mergeNotes(client, { mint: USDC.mint });
    console.log(`merged ${merged.spent.length} notes into`, usdc(merged.note.amount));
  }
  // By hand: split off two 100 USDC notes (the rest is a third), then join those two into one.
  const { notes: parts } = await splitNote(client, { mint: USDC.mint, amounts: ['100', '100'] });
  console.log('split into', parts.map((n) => usdc(n.amount)).join(', '));
  const pair = parts.slice(0, 2);
  const joined = await joinSplit(client, {
    mint: USDC.mint,
    inputs: pair.map((n) => n.commitment),
    amounts: [pair.reduce((sum, n) => sum + n.amount, 0n)], // the notes made: one, of their total
  });
  console.log('joined into', usdc(joined.notes[0]!.amount));
  // To a fresh address of our own: the funding address would tie the withdrawal to the deposit.
  const recipient = freshRecipient('ladder');
  const out = await withdraw(client, { asset: 'USDC', amount: '12.34', recipient });
  console.log(
    'withdrew',
    usdc(out.amount),
    'to',
    recipient,
    out.change ? `(change ${usdc(out.change.amount)})` : '',
  );
  const { USDC: balance } = await getBalances(client, { by: 'symbol' });
  console.log('USDC available', balance?.formatted.available);
} finally {
  await client.close();
}
