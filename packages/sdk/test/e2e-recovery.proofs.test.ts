/**
 * End to end through the SDK only (see `e2e-venue.ts`): a wallet that only deposited, rebuilt
 * from its seed alone, finds every deposit note on the ledger and never reuses a deposit index.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWallet, deposit, syncWallet } from '../src/index.js';
import { SYMBOL, useE2eVenue } from './e2e-venue.js';

const venue = useE2eVenue();

describe('SDK end to end: recovery', () => {
  it('a wallet that only deposited, rebuilt from its seed alone, finds every deposit note on the ledger', async () => {
    const { airdrop, dir, connect, party, finalize } = venue();
    const carol = await party('carol');
    const info = await carol.client.instrument(SYMBOL);
    const { base_mint: SOL, quote_mint: USDC } = info;
    await airdrop(carol.wallet, SOL, '7000');
    await airdrop(carol.wallet, USDC, '900');
    const made = [
      await deposit(carol.client, { mint: SOL, amount: 4000n, wait: 'landed' }),
      await deposit(carol.client, { mint: USDC, amount: 900n, wait: 'landed' }),
      await deposit(carol.client, { mint: SOL, amount: 3000n, wait: 'landed' }),
    ];
    await finalize();
    await carol.stream.close();
    await carol.client.close();

    const recovered = createWallet({ seed: carol.wallet.seed });
    const rc = await connect(recovered, carol.credentials, join(dir, 'carol-recovered'));
    try {
      await syncWallet(rc);
      const notes = recovered.unspentNotes();
      expect(notes.map((n) => n.commitment).sort()).toEqual(made.map((d) => d.note.commitment).sort());
      expect(notes.every((n) => n.state === 'free' && n.leafIndex !== undefined)).toBe(true);
      expect(recovered.balances()[SOL]?.available).toBe(7000n);
      expect(recovered.balances()[USDC]?.available).toBe(900n);
      // A deposit made after recovery takes a fresh index: the seed never reuses a note secret.
      // (The counter is lifted to the funding key's nonce, which the first deposit's work moved
      // past 1, so indices may be skipped, never reused.)
      await airdrop(recovered, SOL, '5');
      const next = await deposit(rc, { mint: SOL, amount: 5n, wait: 'landed' });
      expect(next.index).toBeGreaterThanOrEqual(3);
    } finally {
      await rc.close();
    }
  }, 60_000);
});
