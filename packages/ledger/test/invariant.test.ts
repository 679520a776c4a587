import { randomFieldElement } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { VAULT_ADDRESS } from '../src/index.js';
import { Actor, BAD_PROOF, GOOD_PROOF, SOL, startHarness, USDC, type TestNote } from './harness.js';

/** Small seeded PRNG so a failure replays exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type ModelNote = TestNote & { state: 'unspent' | 'locked' | 'spent'; until: number };

describe('solvency invariant', () => {
  it('holds over a random sequence of 10,000 operations, honest and hostile', async () => {
    const OPS = 10_000;
    const rand = prng(20261121);
    const pick = <T>(xs: T[]): T | undefined =>
      xs.length === 0 ? undefined : xs[Math.floor(rand() * xs.length)];
    const h = await startHarness();
    const c = h.ledger;
    const users = [new Actor(), new Actor(), new Actor()];
    const notes: ModelNote[] = [];
    const mints = [SOL, USDC];
    const counts: Record<string, number> = {};
    const settledOut = new Map<string, bigint>();
    const live = (state: ModelNote['state']) => notes.filter((n) => n.state === state);
    const opening = () => fieldToHex(randomFieldElement());

    for (let i = 0; i < OPS; i++) {
      const r = rand();
      const slot = c.clock.current;
      let op: string;
      if (r < 0.3 || notes.length < 4) {
        op = 'deposit';
        const note = await h.deposit(
          pick(users)!,
          pick(mints)!,
          BigInt(1 + Math.floor(rand() * 1000)),
          Math.floor(rand() * 4),
        );
        notes.push({ ...note, state: 'unspent', until: 0 });
      } else if (r < 0.5) {
        op = 'lock';
        const n = pick(live('unspent'));
        if (n) {
          const ttl = 5 + Math.floor(rand() * 40);
          const rec = await h.lock(n, ttl);
          expect(rec.err).toBeNull();
          Object.assign(n, { state: 'locked', until: slot + ttl });
        }
      } else if (r < 0.65) {
        op = 'settle';
        const locked = live('locked').filter((n) => n.until > slot);
        const a = pick(locked);
        if (a) {
          const cheat = rand() < 0.1;
          const split = BigInt(Math.floor(rand() * Number(a.amount)));
          const outs = [split, a.amount - split + (cheat ? 1n : 0n)].filter((v) => v > 0n);
          const rec = await h.tee.send(c, 'settle_batch', {
            batch_id: String(i),
            matches: [
              {
                match_idx: 0,
                inputs: [a.nullifier],
                outputs: outs.map((v) => ({
                  tree_id: a.treeId,
                  mint: a.mint,
                  amount: String(v),
                  opening_hash: opening(),
                })),
                memos: [],
              },
            ],
          });
          const ok = rec.result?.matches?.[0]?.ok === true;
          expect(ok).toBe(!cheat);
          if (ok) {
            a.state = 'spent';
            // Outputs belong to keys the model does not hold: they stay in the vault, unspendable here.
            for (const v of outs) settledOut.set(a.mint, (settledOut.get(a.mint) ?? 0n) + v);
          }
        }
      } else if (r < 0.75) {
        op = 'withdraw';
        const n = pick(live('unspent'));
        if (n) {
          const hostile = rand() < 0.3;
          const rec = await pick(users)!.send(c, 'withdraw', {
            tree_id: n.treeId,
            merkle_root: await h.currentRoot(n.treeId),
            nullifier: n.nullifier,
            mint: n.mint,
            amount: String(n.amount),
            recipient: pick(users)!.address,
            proof: hostile ? BAD_PROOF : GOOD_PROOF,
          });
          expect(rec.err?.code ?? 'ok').toBe(hostile ? 'InvalidProof' : 'ok');
          if (!rec.err) n.state = 'spent';
        }
      } else if (r < 0.8) {
        op = 'release';
        const n = pick(live('locked'));
        if (n) {
          const rec = await pick(users)!.send(c, 'release_lock', { nullifier: n.nullifier });
          expect(rec.err?.code ?? 'ok').toBe(n.until <= slot ? 'ok' : 'LockActive');
          if (!rec.err) n.state = 'unspent';
        }
      } else if (r < 0.9) {
        op = 'advance';
        await c.advanceSlots({ slots: 1 + Math.floor(rand() * 5) });
      } else {
        op = 'hostile';
        const n = pick(notes.filter((x) => x.state !== 'unspent'));
        if (n) {
          // Double lock of a locked note, or lock/withdraw of a spent one: always refused.
          const rec = await h.lock(n);
          if (n.state === 'locked' && n.until <= slot) {
            // An expired lock may be replaced; keep the model in step.
            if (!rec.err) n.until = slot + 100;
          } else expect(rec.err?.code).toMatch(/NoteLocked|NoteSpent/);
        }
      }
      counts[op] = (counts[op] ?? 0) + 1;
      // Independent check: the vault holds exactly the value of the notes the model says are unspent.
      if (i % 10 === 0 || i === OPS - 1) {
        for (const mint of mints) {
          const held = notes
            .filter((n) => n.mint === mint && n.state !== 'spent')
            .reduce((s, n) => s + n.amount, 0n);
          const expected = held + (settledOut.get(mint) ?? 0n);
          expect(await c.getBalance({ owner: VAULT_ADDRESS, mint })).toBe(expected.toString());
        }
      }
    }
    expect(Object.keys(counts).sort()).toEqual([
      'advance',
      'deposit',
      'hostile',
      'lock',
      'release',
      'settle',
      'withdraw',
    ]);
    await h.ledger.close();
  }, 120_000);
});
