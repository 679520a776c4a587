/**
 * Issue 30 items 3 and 4: the wallet's reads stop naming its notes. A client wrapper records every
 * engine HTTP path and every ledger RPC call while a trader deposits, splits, merges, withdraws an
 * odd amount and syncs (stand-in proofs; the ledger checks every root and nullifier for real).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '@nightjar/ledger';
import type { Instrument } from '@nightjar/protocol';
import {
  deposit,
  mergeNotes,
  splitNote,
  syncWallet,
  waitForInclusion,
  withdraw,
  ProofError,
  type Client,
  type JoinSplitProgress,
} from '../src/index.js';
import { freshAddress, startTestVenue, type TestVenue } from './helpers.js';
import { finalize, newParty } from './fast-venue.js';

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

interface LedgerCall {
  method: string;
  params: unknown;
}

/** A ledger that records every call (method and params) before passing it on. */
function recordingLedger(calls: LedgerCall[]) {
  return (inner: LedgerClient): LedgerClient =>
    new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function' || prop === 'subscribe' || prop === 'close') return value;
        return (params: unknown) => {
          calls.push({ method: String(prop), params });
          return (value as (p: unknown) => unknown).call(target, params);
        };
      },
    });
}

/** Records the path of every engine request the client makes. */
function recordPaths(client: Client): string[] {
  const paths: string[] = [];
  const request = client.request.bind(client);
  client.request = ((path: string, options?: never) => {
    paths.push(path);
    return request(path, options);
  }) as Client['request'];
  return paths;
}

const finalizeOnLanding = {
  onProgress: (p: JoinSplitProgress) => {
    if (p.stage === 'landed') void finalize(v);
  },
};

/** What one trader's session sent: engine paths, ledger calls (and where its sync began). */
interface Session {
  funding: string;
  paths: string[];
  calls: LedgerCall[];
  syncStart: number;
  nullifiers: string[];
}

/**
 * A deposit (awaited until usable), a split, a merge, an odd-amount withdrawal (a split first) and
 * a sync, all recorded.
 */
async function tradeSession(): Promise<Session> {
  const calls: LedgerCall[] = [];
  const a = await newParty(v, { ledger: recordingLedger(calls) });
  const paths = recordPaths(a.client);
  try {
    const funding = a.wallet.keys.funding.address;
    await v.ledger.requestAirdrop({ owner: funding, mint: USDC, amount: '1000' });
    const usable = await deposit(a.client, {
      mint: USDC,
      amount: 1_000n,
      onProgress: (p) => {
        if (p.stage === 'landed') void finalize(v);
      },
    });
    expect(usable.usable).toBe(true);
    expect(await waitForInclusion(a.client, { commitment: usable.note.commitment, timeoutMs: 5_000 })).toBe(
      true,
    );

    const split = await splitNote(a.client, { mint: USDC, amounts: [300n, 300n], ...finalizeOnLanding });
    expect(split.notes.map((n) => n.amount)).toEqual([300n, 300n, 400n]);
    const merged = await mergeNotes(a.client, {
      mint: USDC,
      commitments: [split.notes[0]!.commitment, split.notes[1]!.commitment],
      ...finalizeOnLanding,
    });
    expect(merged.note.amount).toBe(600n);
    // 123 is no note's value: one withdrawal pays it and keeps the rest as change.
    const out = await withdraw(a.client, { mint: USDC, amount: 123n, recipient: freshAddress() });
    expect(out.amount).toBe(123n);
    await finalize(v);
    expect(await v.ledger.getBalance({ owner: out.recipient, mint: USDC })).toBe('123');

    const syncStart = calls.length;
    await syncWallet(a.client);
    expect(a.wallet.notes.get(out.note.commitment)?.state).toBe('spent');
    expect(a.wallet.notes.get(merged.note.commitment)?.state).toBe('free');
    const nullifiers = [...a.wallet.notes.values()].map((n) => n.nullifier);
    return { funding, paths, calls, syncStart, nullifiers };
  } finally {
    await a.client.close();
  }
}

const names = (c: LedgerCall, s: string) => JSON.stringify(c.params ?? null).includes(s);

describe('the wallet names its notes to no one (issue 30 items 3 and 4)', () => {
  let s: Session;
  beforeAll(async () => {
    s = await tradeSession();
  }, 60_000);

  it('a deposit, a split, a merge and an odd withdrawal ask the venue for no inclusion path', () => {
    expect(s.paths.filter((p) => p.startsWith('/tree/inclusion'))).toEqual([]);
    expect(s.paths.length).toBeGreaterThan(0);
  });

  it("syncWallet names none of the wallet's nullifiers: note states come from the chain's spent set", () => {
    expect(s.nullifiers.length).toBeGreaterThan(5);
    const syncReads = s.calls.slice(s.syncStart);
    expect(syncReads.some((c) => names(c, s.funding))).toBe(true); // getDeposits, getNonce: by design
    expect(syncReads.filter((c) => s.nullifiers.some((n) => names(c, n)))).toEqual([]);
    expect(syncReads.map((c) => c.method)).toContain('getSpentNullifiers');
  });

  it('no ledger read carries the funding address beside a nullifier of the wallet', () => {
    // Reads only: the withdrawal transaction itself is item 1's (its signer).
    const reads = s.calls.filter((c) => c.method !== 'sendTransaction');
    const joined = reads.filter((c) => names(c, s.funding) && s.nullifiers.some((n) => names(c, n)));
    expect(joined).toEqual([]);
  });
});

describe('local paths: the leaves a node serves must lead to a root the ledger had', () => {
  it('a node that serves a wrong leaf gets no proof sent (ProofError), and the note stays free', async () => {
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
      ).rejects.toBeInstanceOf(ProofError);
      expect(a.wallet.notes.get(d.note.commitment)?.state).toBe('free');
    } finally {
      await a.client.close();
    }
  });
});
