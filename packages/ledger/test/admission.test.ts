/**
 * The total bound on waiting transactions, over JSON-RPC: strangers holding every place (their
 * proofs in a slow verifier) are refused past it with -32007, while the TEE key is still admitted
 * and settles.
 */
import { randomFieldElement } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { RpcLedgerClient, serveLedger } from '../src/index.js';
import { Actor, BAD_PROOF, SOL, startHarness } from './harness.js';
import { waitFor } from './wait.js';

describe('admission bound in total', () => {
  it('strangers filling it are refused with -32007; the TEE key is not counted and settles', async () => {
    let server: Awaited<ReturnType<typeof serveLedger>> | undefined;
    const h = await startHarness({
      admission: { perSigner: 2, total: 4 },
      wrap: async (ledger) => {
        server = await serveLedger(ledger);
        return new RpcLedgerClient(server.url, { devSecret: server.devSecret });
      },
    });
    const c = h.client;
    const { bid, ask } = await h.lockedPair();
    const root = await h.currentRoot();
    const withdraw = (by: Actor) =>
      by.sign({
        name: 'withdraw',
        args: {
          tree_id: 0,
          merkle_root: root,
          nullifier: fieldToHex(randomFieldElement()),
          mint: SOL,
          amount: '1',
          recipient: by.address,
          proof: BAD_PROOF,
        },
      });
    // The strangers' proofs are slow; the settlement's (another batcher) is not.
    const release = h.verifier.hold('valid_spend_v2');
    let refused = 0;
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'landed',
        (e: { code?: number }) => (e.code === -32007 && refused++, e.code),
      );
    const flooders = [new Actor(), new Actor(), new Actor()];
    const sent = flooders
      .flatMap((f) => [withdraw(f), withdraw(f)])
      .map((tx) => outcome(c.sendTransaction({ transaction: tx })));
    try {
      // Six strangers' transactions, four places: two are refused, whichever arrive last.
      await waitFor(() => refused === 2);
      const settle = await h.settle([await h.matchArgs(bid, ask)]);
      expect(settle.result?.matches?.[0]?.ok).toBe(true);
    } finally {
      release();
    }
    // The admitted ones were judged, and refused for their junk proofs.
    const outcomes = await Promise.all(sent);
    expect(outcomes.filter((o) => o === -32002)).toHaveLength(4);
    expect(outcomes.filter((o) => o === -32007)).toHaveLength(2);
    await c.close();
    await server!.close();
    await h.ledger.close();
  }, 30_000);
});
