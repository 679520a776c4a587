/**
 * Issue 30 item 3: a wallet builds the inclusion paths of the notes it spends from the ledger's
 * leaves, so a node that serves a wrong leaf must not get a proof out of it (stand-in proofs; the
 * ledger checks every root and nullifier for real). That the wallet asks the venue for no path and
 * names its nullifiers to no one is held by privacy-scenario.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instrument } from '@nightjar/protocol';
import { deposit, withdraw } from '../src/index.js';
import { freshAddress, startTestVenue, type TestVenue } from './helpers.js';
import { newParty } from '@nightjar/testkit';
import { NIGHTJAR_ERROR__PROOF, isNightjarError } from '../src/index.js';

let v: TestVenue;
let USDC: string;

beforeAll(async () => {
  v = await startTestVenue({ settle: true, loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
  const first = await newParty(v);
  const inst: Instrument = await first.client.instrument('SOL-USDC');
  await first.client.close();
  USDC = inst.quote_mint;
}, 60_000);
afterAll(async () => {
  await v?.close();
});

describe('local paths: the leaves a node serves must lead to a root the ledger had', () => {
  it('a node that serves a wrong leaf gets no proof sent (PROOF), and the note stays free', async () => {
    const a = await newParty(v, {
      ledger: (inner) =>
        new Proxy(inner, {
          get(target, prop, receiver) {
            if (prop !== 'getLeaves') return Reflect.get(target, prop, receiver) as unknown;
            return async (p: { tree_id: number; from: number; to: number }) => {
              const r = await target.getLeaves(p);
              // Leaf 0 (someone else's) altered: every root the wallet computes is then wrong.
              return {
                leaves: r.leaves.map((l) =>
                  l.leaf_index === 0 ? { ...l, value: '01'.padStart(64, '0') } : l,
                ),
              };
            };
          },
        }),
    });
    try {
      await v.ledger.requestAirdrop({ owner: a.wallet.keys.funding.address, mint: USDC, amount: '50' });
      const d = await deposit(a.client, { mint: USDC, amount: 50n, wait: 'landed' });
      await expect(
        withdraw(a.client, { commitment: d.note.commitment, recipient: freshAddress() }),
      ).rejects.toSatisfy((e: unknown) => isNightjarError(e, NIGHTJAR_ERROR__PROOF));
      expect(a.wallet.notes.get(d.note.commitment)?.state).toBe('free');
    } finally {
      await a.client.close();
    }
  });
});
