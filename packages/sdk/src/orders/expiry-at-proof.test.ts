/**
 * An order's `expiry_slot` is a proof input, so it is read from the venue's clock when its proof
 * starts, not when the call was made: orders queued behind a slow prover still reach the venue
 * with the lifetime they asked for (issue 32: 30-s demo orders refused 1012 under load).
 */
import { requiredCollateral, SETTLEMENT_BUFFER_SLOTS } from '@nightjar/protocol';
import {
  defaultRoutes,
  FAKE_MARKET,
  FAKE_SOL,
  fakeClient,
  giveNote,
  refusing,
} from '@nightjar/testkit/sdk-fakes';
import { standInProver } from '@nightjar/testkit';
import { describe, expect, it } from 'vitest';
import type { Prover } from '../core/prover.js';
import { placeOrder } from '../actions/place-order.js';

const ASK = { symbol: 'SOL-USDC', side: 'ask', amount: '1', price: '151', expiry: { seconds: 30 } } as const;
const NEED = requiredCollateral('ask', 1_000_000_000n, 151_000_000n, FAKE_MARKET);

/** The venue's manual clock and a one-worker prover whose every proof takes `proofSlots` of it. */
function slowVenue(proofSlots: bigint) {
  const clock = { slot: 1000n };
  const base = defaultRoutes();
  const proofStarts: bigint[] = [];
  let worker: Promise<unknown> = Promise.resolve();
  const prover: Prover = {
    ...standInProver,
    workers: 1,
    // One worker: a proof handed over while another runs queues inside the prover, as NoteProver's do.
    proveValidInputV2: (req) => {
      const proof = worker.then(async () => {
        proofStarts.push(clock.slot);
        clock.slot += proofSlots;
        return standInProver.proveValidInputV2(req);
      });
      worker = proof.catch(() => undefined);
      return proof;
    },
  };
  const fake = fakeClient({
    prover,
    routes: {
      'GET /time': () => ({ slot: Number(clock.slot), unix_ms: Date.now() }),
      // The venue's check: an order must outlive the settlement buffer when it arrives.
      'POST /orders': (req) => {
        const expiry = BigInt((req.body as { expiry_slot: bigint }).expiry_slot);
        if (expiry <= clock.slot + SETTLEMENT_BUFFER_SLOTS)
          return refusing(
            1012,
            400,
            `expiry_slot must be beyond slot ${clock.slot + SETTLEMENT_BUFFER_SLOTS}`,
          )(req);
        return base['POST /orders']!(req);
      },
    },
  });
  // The venue's 400-ms slots: 30 s are 75 of them.
  const client = { ...fake.client, slotMs: 400 };
  return { client, wallet: fake.wallet, clock, proofStarts };
}

describe('expiry at proof time', () => {
  it('orders queued behind a slow prover each get their 30 s from when their proof starts', async () => {
    // Each proof takes 20 s (50 slots): the third order waits 40 s for the prover, longer than
    // the 30 s it asked to live.
    const venue = slowVenue(50n);
    const lifetime = BigInt(Math.ceil(30_000 / venue.client.slotMs));
    for (let i = 0; i < 3; i++) giveNote(venue.wallet, FAKE_SOL, NEED, i);
    const placed = await Promise.all([0, 1, 2].map(() => placeOrder(venue.client, ASK)));
    expect(venue.proofStarts).toEqual([1000n, 1050n, 1100n]);
    const expiries = placed.map((p) => p.body.expiry_slot).sort((a, b) => (a < b ? -1 : 1));
    expect(expiries).toEqual(venue.proofStarts.map((s) => s + lifetime));
    expect(venue.wallet.reserved.size).toBe(0);
  });
});
