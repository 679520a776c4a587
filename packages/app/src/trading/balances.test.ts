/** Balances tell again while value is arriving: the engine's tree taking a note has no event of its own. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWallet, type Client } from '@nightjar/sdk';
import type { BalanceView } from '../api-types.js';
import type { VenueSession } from '../venue.js';
import { ARRIVING_RECHECK_MS, Balances } from './balances.js';
import type { Markets } from './markets.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

afterEach(() => {
  vi.useRealTimers();
});

describe('Balances', () => {
  it('a landed note is arriving until the engine tree has it, then told usable without another event', async () => {
    vi.useFakeTimers();
    const w = createWallet({ seed: new Uint8Array(32).fill(9) });
    const note = w.depositNote(0, USDC, 5_000_000n).note;
    w.addLeaves(0, 0, [note.commitment]);
    w.addNote({ ...note, leafIndex: 0, state: 'free' });
    // The venue's tree: empty until the ledger finalizes the leaf.
    const tree = { leafCount: 0 };
    const client = {
      request: async (path: string) => {
        expect(path).toBe('/tree/root?tree_id=0');
        return { leaf_count: String(tree.leafCount) };
      },
      ledger: { getBalance: async () => '0' },
    } as unknown as Client;
    const venue = { require: () => client } as unknown as VenueSession;
    const markets = {
      assets: async () => [{ symbol: 'USDC', mint: USDC, decimals: 6 }],
    } as unknown as Markets;
    const told: BalanceView[][] = [];
    const balances = new Balances(venue, w, markets, (b) => told.push(b));
    try {
      const first = await balances.views({ sync: false });
      expect(first[0]).toMatchObject({ usable: '0', arriving: '5' });
      tree.leafCount = 1;
      await vi.advanceTimersByTimeAsync(ARRIVING_RECHECK_MS + 250);
      expect(told.at(-1)?.[0]).toMatchObject({ usable: '5', arriving: '0' });
      // Nothing arriving: no more rechecks.
      const n = told.length;
      await vi.advanceTimersByTimeAsync(10 * ARRIVING_RECHECK_MS);
      expect(told.length).toBe(n);
    } finally {
      balances.close();
    }
  });
});
