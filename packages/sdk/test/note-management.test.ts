/**
 * Note management (issue 19) against the engine's harness with stand-in proofs (see
 * `fast-venue.ts`: the join-split witness is computed for real, only the proof bytes are
 * stand-ins): the planning and bookkeeping around splits and merges. Real VALID_JOIN_SPLIT proofs,
 * checked by the ledger, are in `e2e-notes.proofs.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredCollateral, type Instrument } from '@nightjar/protocol';
import {
  cancelOrder,
  joinSplit,
  mergeCandidates,
  mergeNotes,
  placeOrder,
  placeOrders,
  splitNote,
  syncWallet,
  withdraw,
  type JoinSplitProgress,
  type Wallet,
} from '../src/index.js';
import { freshAddress, startTestVenue, type TestVenue } from './helpers.js';
import { finalize, fund, newParty, units } from '@nightjar/testkit';
import {
  INSUFFICIENT_NOTES_CODES,
  NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS,
  NIGHTJAR_ERROR__LEDGER_REFUSED,
  NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS,
  NIGHTJAR_ERROR__NOTE_NOT_FREE,
  NIGHTJAR_ERROR__NOTHING_TO_MERGE,
  isNightjarError,
} from '../src/index.js';

let v: TestVenue;
let inst: Instrument;
let USDC: string;
let px: (p: number) => bigint;

beforeAll(async () => {
  v = await startTestVenue({ settle: true, loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
  const first = await newParty(v);
  inst = await first.client.instrument('SOL-USDC');
  await first.client.close();
  USDC = inst.quote_mint;
  ({ price: px } = units(inst));
}, 60_000);
afterAll(async () => {
  await v?.close();
});

/** The collateral of a 1 SOL bid at `price`. */
const need = (price: number) => requiredCollateral('bid', 10n ** BigInt(inst.base_decimals), px(price), inst);

/** Finalizes each split as it lands, so the wait for the venue's tree ends (the clock is manual). */
const finalizeOnLanding = (seen: JoinSplitProgress[] = []) => ({
  seen,
  onProgress: (p: JoinSplitProgress) => {
    seen.push(p);
    if (p.stage === 'landed') void finalize(v);
  },
});

describe('splits and merges (stand-in proofs)', () => {
  it('splitNote: amounts plus the remainder, then a merge back; the stages are told in order', async () => {
    const a = await newParty(v);
    try {
      const deposit = await fund(a, v, USDC, 1_000n);
      await finalize(v);
      const { seen, onProgress } = finalizeOnLanding();
      const split = await splitNote(a.client, { mint: USDC, amounts: [100n, 250n], onProgress });
      expect(split.spent.map((n) => n.commitment)).toEqual([deposit.commitment]);
      expect(split.notes.map((n) => n.amount)).toEqual([100n, 250n, 650n]);
      expect(seen.map((p) => p.stage)).toEqual(['proving', 'sending', 'landed', 'usable']);
      expect(a.wallet.notes.get(deposit.commitment)?.state).toBe('spent');
      expect(split.notes.every((n) => n.state === 'free' && n.leafIndex !== undefined)).toBe(true);
      expect(a.wallet.reserved.size).toBe(0);

      expect(mergeCandidates(a.client, { mint: USDC }).map((n) => n.amount)).toEqual([100n, 250n, 650n]);
      const merged = await mergeNotes(a.client, { mint: USDC, ...finalizeOnLanding() });
      expect(merged.note.amount).toBe(1_000n);
      expect(mergeCandidates(a.client, { mint: USDC })).toEqual([]);
      await expect(mergeNotes(a.client, { mint: USDC })).rejects.toSatisfy((e: unknown) =>
        isNightjarError(e, NIGHTJAR_ERROR__NOTHING_TO_MERGE),
      );

      // Equal parts: the division's remainder goes to the first parts.
      const parts = await splitNote(a.client, { mint: USDC, into: 3, ...finalizeOnLanding() });
      expect(parts.notes.map((n) => n.amount)).toEqual([334n, 333n, 333n]);
    } finally {
      await a.client.close();
    }
  });

  it('refuses before sending: more out than in, a note backing an order, too many notes', async () => {
    const a = await newParty(v);
    try {
      const note = await fund(a, v, USDC, need(150));
      await finalize(v);
      const over = await splitNote(a.client, {
        mint: USDC,
        commitment: note.commitment,
        amounts: [note.amount, 1n],
      }).catch((e: unknown) => e);
      expect(isNightjarError(over, NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS)).toBe(true);
      expect(over).toMatchObject({ codeName: 'JOIN_SPLIT_AMOUNTS', context: { inputTotal: note.amount } });
      await expect(
        joinSplit(a.client, { mint: USDC, inputs: [note.commitment], amounts: [note.amount - 1n] }),
      ).rejects.toSatisfy((e: unknown) => isNightjarError(e, NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS));
      await expect(splitNote(a.client, { mint: USDC, amounts: Array<bigint>(8).fill(1n) })).rejects.toSatisfy(
        (e: unknown) => isNightjarError(e, NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS),
      ); // 8 and a remainder
      expect(a.wallet.reserved.size).toBe(0);

      const bid = await placeOrder(a.client, { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150' });
      const taken = await splitNote(a.client, { mint: USDC, commitment: note.commitment, into: 2 }).catch(
        (e: unknown) => e,
      );
      expect(isNightjarError(taken, NIGHTJAR_ERROR__NOTE_NOT_FREE)).toBe(true);
      expect(taken).toMatchObject({
        codeName: 'NOTE_NOT_FREE',
        context: { reason: 'order', commitment: note.commitment },
      });
      await cancelOrder(a.client, { orderId: bid.orderId });
      // Nothing was sent: the note is still unspent on the ledger.
      expect((await v.ledger.getNoteStatus({ nullifier: note.nullifier })).state).toBe('free');
    } finally {
      await a.client.close();
    }
  });

  it('the ledger refuses a split of a note it spent already: LEDGER_REFUSED with its code, the input left as it was', async () => {
    const a = await newParty(v);
    try {
      const note = await fund(a, v, USDC, 500n);
      await finalize(v);
      // A second copy of the wallet (same seed) that has not heard of the split.
      const stale = await newParty(v, { seed: a.wallet.seed });
      try {
        await syncWallet(stale.client);
        await splitNote(a.client, { mint: USDC, amounts: [200n], ...finalizeOnLanding() });
        const err = await splitNote(stale.client, {
          mint: USDC,
          commitment: note.commitment,
          amounts: [100n],
        }).catch((e: unknown) => e);
        expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_REFUSED)).toBe(true);
        expect(err).toMatchObject({
          codeName: 'LEDGER_REFUSED',
          context: { ledgerCode: 'NoteSpent', landed: true },
        });
        expect(stale.wallet.notes.get(note.commitment)?.state).toBe('free');
        expect(stale.wallet.reserved.size).toBe(0);
        // Its next sync learns the truth: the input spent, the outputs found from the note memo.
        await syncWallet(stale.client);
        expect(stale.wallet.notes.get(note.commitment)?.state).toBe('spent');
        expect(stale.wallet.freeNotes(USDC).map((n) => n.amount)).toEqual([200n, 300n]);
      } finally {
        await stale.client.close();
      }
    } finally {
      await a.client.close();
    }
  });
});

describe('notes prepared for orders and withdrawals (stand-in proofs)', () => {
  it('placeOrders: a ten-level ladder from one deposit takes two chained splits and places every order', async () => {
    const a = await newParty(v);
    try {
      const prices = [150, 149, 148, 147, 146, 145, 144, 143, 142, 141];
      const total = prices.reduce((s, p) => s + need(p), 0n);
      const deposit = await fund(a, v, USDC, total + 77n);
      await finalize(v);
      const { seen, onProgress } = finalizeOnLanding();
      const { results, splits } = await placeOrders(a.client, {
        orders: prices.map((p) => ({
          symbol: 'SOL-USDC',
          side: 'bid' as const,
          amount: '1',
          price: String(p),
        })),
        onProgress: (p) => {
          if (p.stage !== 'placed' && p.stage !== 'failed') onProgress(p);
        },
      });
      expect(results.map((r) => r.status)).toEqual(prices.map(() => 'success'));
      expect(splits).toHaveLength(2);
      expect(splits[0]!.spent.map((n) => n.commitment)).toEqual([deposit.commitment]);
      expect(splits[1]!.spent.map((n) => n.commitment)).toEqual([splits[0]!.notes[7]!.commitment]);
      const bodies = results.flatMap((r) => (r.status === 'success' ? [r.result.body] : []));
      expect(bodies.every((b) => b.collateral_amount === undefined)).toBe(true); // an exact note each
      const nonces = bodies.map((b) => b.arrival_nonce);
      expect(nonces).toEqual([...nonces].sort((x, y) => (x < y ? -1 : 1))); // sent in ladder order
      expect(a.wallet.freeNotes(USDC).map((n) => n.amount)).toEqual([77n]);
      expect(seen.filter((p) => p.stage === 'landed')).toHaveLength(2);
      expect(a.wallet.reserved.size).toBe(0);
    } finally {
      await a.client.close();
    }
  });

  it('placeOrders: an order that names its note keeps it; the others are planned around it', async () => {
    const a = await newParty(v);
    try {
      const named = await fund(a, v, USDC, need(150));
      await fund(a, v, USDC, 10n * need(150));
      await finalize(v);
      const { results, splits } = await placeOrders(a.client, {
        orders: [
          { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150', note: named.commitment },
          { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150' },
          { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '149' },
        ],
        onProgress: (p) => void (p.stage === 'landed' && finalize(v)),
      });
      expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
      expect(results[0]!.status === 'success' && results[0]!.result.noteCommitment).toBe(named.commitment);
      expect(splits).toHaveLength(1);
      expect(splits[0]!.notes.map((n) => n.amount)).toEqual([
        need(150),
        need(149),
        8n * need(150) + need(150) - need(149),
      ]);
    } finally {
      await a.client.close();
    }
  });

  it('placeOrder merges notes when none covers the order alone; `off` names the fix; `exact` splits a larger note', async () => {
    const a = await newParty(v);
    try {
      const n = need(150);
      for (const part of [n / 2n, n / 2n - 5n, 10n]) await fund(a, v, USDC, part);
      await finalize(v);
      const off = await placeOrder(a.client, {
        symbol: 'SOL-USDC',
        side: 'bid',
        amount: '1',
        price: '150',
        prepareNote: 'off',
      }).catch((e: unknown) => e);
      expect(isNightjarError(off, INSUFFICIENT_NOTES_CODES)).toBe(true);
      expect((off as { fix: string }).fix).toContain('merge smaller notes');

      const placed = await placeOrder(a.client, {
        symbol: 'SOL-USDC',
        side: 'bid',
        amount: '1',
        price: '150',
        ...(() => {
          const { onProgress } = finalizeOnLanding();
          return { onNoteProgress: onProgress };
        })(),
      });
      expect(placed.split?.spent).toHaveLength(3);
      expect(placed.split?.notes.map((x) => x.amount)).toEqual([n, (n % 2n) + 5n]);
      expect(placed.body.collateral_amount).toBeUndefined();
      await cancelOrder(a.client, { orderId: placed.orderId });

      // One larger note: `auto` uses it whole (collateral_amount), `exact` splits it first.
      const exact = await placeOrder(a.client, {
        symbol: 'SOL-USDC',
        side: 'bid',
        amount: '1',
        price: '140',
        prepareNote: 'exact',
        onNoteProgress: finalizeOnLanding().onProgress,
      });
      expect(exact.split?.notes.map((x) => x.amount)).toEqual([need(140), n - need(140)]);
      expect(exact.body.collateral_amount).toBeUndefined();
      expect(a.wallet.freeNotes(USDC).map((x) => x.amount)).toEqual([(n % 2n) + 5n, n - need(140)]);
    } finally {
      await a.client.close();
    }
  });

  it('withdraw of any amount is one transaction from one note: exactly that amount paid, the rest a change note', async () => {
    const a = await newParty(v);
    try {
      await fund(a, v, USDC, 300n);
      await fund(a, v, USDC, 500n);
      await finalize(v);
      const to = freshAddress();
      const w = await withdraw(a.client, { mint: USDC, amount: 420n, recipient: to });
      // The smallest note that covers it, spent in place: no split or merge first.
      expect(w.note.amount).toBe(500n);
      expect(w.note.state).toBe('spent');
      expect(w.amount).toBe(420n);
      expect(await v.ledger.getBalance({ owner: to, mint: USDC })).toBe('420');
      expect(w.change).toMatchObject({ amount: 80n, origin: 'withdrawal_change', state: 'free' });
      expect(w.change?.leafIndex).toBeDefined();
      expect(
        a.wallet
          .freeNotes(USDC)
          .map((n) => n.amount)
          .sort(),
      ).toEqual([300n, 80n].sort());
      // The whole of a named note: no change.
      await finalize(v);
      const whole = await withdraw(a.client, { commitment: w.change!.commitment, recipient: to });
      expect(whole.change).toBeUndefined();
      expect(await v.ledger.getBalance({ owner: to, mint: USDC })).toBe('500');
      // More than one note holds: one withdrawal spends one note, the fix says to merge.
      const none = await withdraw(a.client, { mint: USDC, amount: 301n, recipient: to }).catch(
        (e: unknown) => e,
      );
      expect(isNightjarError(none, INSUFFICIENT_NOTES_CODES)).toBe(true);
      expect((none as { fix: string }).fix).toContain('merge smaller notes');
    } finally {
      await a.client.close();
    }
  });

  it('a wallet rebuilt from the seed finds a withdrawal’s change through its memo', async () => {
    const a = await newParty(v);
    try {
      await fund(a, v, USDC, 700n);
      await finalize(v);
      const w = await withdraw(a.client, { mint: USDC, amount: 123n, recipient: freshAddress() });
      await finalize(v);
      const b = await newParty(v, { seed: a.wallet.seed });
      try {
        await syncWallet(b.client);
        const change = b.wallet.notes.get(w.change!.commitment);
        expect(change).toMatchObject({ amount: 577n, origin: 'withdrawal_change', state: 'free' });
        expect(b.wallet.notes.get(w.note.commitment)?.state).toBe('spent');
        expect(b.wallet.freeNotes(USDC).map((n) => n.amount)).toEqual([577n]);
      } finally {
        await b.client.close();
      }
    } finally {
      await a.client.close();
    }
  });

  it('refuses a recipient that funded the wallet’s deposits unless the caller accepts the link', async () => {
    const a = await newParty(v);
    try {
      await fund(a, v, USDC, 200n);
      await finalize(v);
      const funding = a.wallet.keys.funding.address;
      const before = await v.ledger.getBalance({ owner: funding, mint: USDC });
      const err = await withdraw(a.client, { mint: USDC, amount: 50n, recipient: funding }).catch(
        (e: unknown) => e,
      );
      expect(isNightjarError(err, NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS)).toBe(true);
      expect(err).toMatchObject({ codeName: 'LINKS_FUNDING_ADDRESS', context: { recipient: funding } });
      expect((err as Error).message).toMatch(/links this withdrawal .* to every deposit from that address/);
      expect((err as { fix: string }).fix).toContain('accept that the withdrawal links to your deposits');
      // Nothing was sent or reserved: the note is still free.
      expect(a.wallet.freeNotes(USDC).map((n) => n.amount)).toEqual([200n]);
      await expect(
        withdraw(a.client, { mint: USDC, amount: 50n, recipient: undefined as unknown as string }),
      ).rejects.toThrow(/needs a recipient/);
      const ok = await withdraw(a.client, {
        mint: USDC,
        amount: 50n,
        recipient: funding,
        linkFundingAddress: true,
      });
      expect(ok.amount).toBe(50n);
      expect(BigInt(await v.ledger.getBalance({ owner: funding, mint: USDC })) - BigInt(before)).toBe(50n);
    } finally {
      await a.client.close();
    }
  });

  it('linkage: no withdrawal on chain is signed by a key that ever signed a deposit, and none follows a join-split', async () => {
    const a = await newParty(v);
    try {
      await finalize(v); // a slot of its own: the earlier tests' transactions are all before it
      const from = await v.ledger.getSlot({ commitment: 'processed' });
      await fund(a, v, USDC, 333n);
      await fund(a, v, USDC, 1_000n);
      await finalize(v);
      const w = await withdraw(a.client, { mint: USDC, amount: 777n, recipient: freshAddress() });
      await finalize(v);
      // What a chain observer reads: every block since the deposits.
      const to = await v.ledger.getSlot({ commitment: 'finalized' });
      const blocks = [];
      for (let slot = 0; slot <= to; slot++) blocks.push(await v.ledger.getBlock({ slot }));
      const txs = blocks.flatMap((b) => b.transactions);
      const depositors = new Set(txs.filter((t) => t.instruction.name === 'deposit').map((t) => t.signer));
      expect(depositors.has(a.wallet.keys.funding.address)).toBe(true);
      const withdrawals = txs.filter((t) => t.instruction.name === 'withdraw');
      expect(withdrawals.map((t) => t.signature)).toContain(w.signature);
      for (const t of withdrawals) expect(depositors.has(t.signer)).toBe(false);
      expect(w.signer).not.toBe(a.wallet.keys.funding.address);
      // One transaction: since this wallet's deposits, no join-split made the note it withdrew.
      const since = blocks.filter((b) => b.slot >= from).flatMap((b) => b.transactions);
      expect(since.map((t) => t.instruction.name).sort()).toEqual(['deposit', 'deposit', 'withdraw']);
    } finally {
      await a.client.close();
    }
  });

  it('a wallet rebuilt from the seed finds split outputs, merge outputs and their states', async () => {
    const a = await newParty(v);
    try {
      await fund(a, v, USDC, 900n);
      await finalize(v);
      const split = await splitNote(a.client, { mint: USDC, amounts: [100n, 200n], ...finalizeOnLanding() });
      await mergeNotes(a.client, {
        mint: USDC,
        commitments: [split.notes[0]!.commitment, split.notes[2]!.commitment],
        ...finalizeOnLanding(),
      });
      const b = await newParty(v, { seed: a.wallet.seed });
      try {
        await syncWallet(b.client);
        const view = (w: Wallet) =>
          [...w.notes.values()].map((n) => `${n.amount}:${n.state}:${n.origin}:${n.commitment}`).sort();
        expect(view(b.wallet)).toEqual(view(a.wallet));
        expect(b.wallet.freeNotes(USDC).map((n) => n.amount)).toEqual([200n, 700n]);
      } finally {
        await b.client.close();
      }
    } finally {
      await a.client.close();
    }
  });
});
