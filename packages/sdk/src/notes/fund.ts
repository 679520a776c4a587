/**
 * Makes notes of given amounts from the wallet's free notes of one mint: plans (`planNotes`), then
 * runs the plan's join-splits, independent ones at once (their proofs run in parallel on the
 * prover's workers) and a chained one once the split it takes a remainder from has landed and is
 * usable. Every note handed back is reserved for the caller, who releases it (placing an order
 * does); every other note the plan touched is released here.
 */
import type { Client } from '../client.js';
import type { WalletNote } from '../wallet/wallet.js';
import { largestAmount } from './choose-note.js';
import { planNotes } from './plan.js';
import { runJoinSplit, type JoinSplitProgress, type JoinSplitReturnType } from './run-join-split.js';
import { NIGHTJAR_ERROR__INSUFFICIENT_NOTES, NightjarError } from '../core/errors/index.js';

/** Notes to make. */
export interface FundNotesRequest {
  mint: string;
  /** Positive amounts, one note each. */
  amounts: readonly bigint[];
  /** A larger note may back an amount (an order's `collateral_amount`) when there are enough for all. */
  allowLarger: boolean;
  /** Bound of each wait for the venue's tree, in ms. */
  waitMs?: number;
  /** Notes not to use (commitments): those other orders of the same batch name. */
  exclude?: ReadonlySet<string>;
  onProgress?: (p: JoinSplitProgress) => void;
}

/** Per amount: its note (reserved for the caller), or why there is none. */
export type FundedNote = { status: 'success'; note: WalletNote } | { status: 'failure'; error: Error };

/** Per amount in order, and the join-splits that landed. */
export interface FundNotesResult {
  funded: FundedNote[];
  splits: JoinSplitReturnType[];
}

const noop = () => undefined;

/** The error for an amount the free notes cannot cover. */
export function shortfall(mint: string, amount: bigint, free: readonly WalletNote[]): NightjarError {
  return new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
    mint,
    required: amount,
    available: largestAmount(free),
  });
}

/** Makes a note of each amount (see the module comment). */
export async function fundNotes(client: Client, req: FundNotesRequest): Promise<FundNotesResult> {
  const wallet = client.wallet;
  const free = wallet.freeNotes(req.mint).filter((n) => !req.exclude?.has(n.commitment));
  const plan = planNotes(req.amounts, free, { allowLarger: req.allowLarger });
  const byCommitment = new Map(free.map((n) => [n.commitment, n]));
  // Hold every existing note the plan uses, in the tick it was planned from.
  for (const f of [...plan.funding, ...plan.splits.flatMap((s) => s.inputs)])
    if (f && 'note' in f) wallet.reserved.add(f.note);

  const runs: Promise<JoinSplitReturnType>[] = [];
  plan.splits.forEach((split, k) => {
    const kept = new Set(plan.funding.flatMap((f) => (f && 'split' in f && f.split === k ? [f.slot] : [])));
    for (const later of plan.splits)
      for (const s of later.inputs) if ('split' in s && s.split === k) kept.add(s.slot);
    runs[k] = (async () => {
      const inputs: WalletNote[] = [];
      try {
        for (const s of split.inputs)
          inputs.push('note' in s ? byCommitment.get(s.note)! : (await runs[s.split]!).notes[s.slot]!);
        const r = await runJoinSplit(client, {
          mint: req.mint,
          inputs,
          amounts: split.outputs,
          keepOutputsReserved: true,
          ...(req.waitMs === undefined ? {} : { waitMs: req.waitMs }),
          ...(req.onProgress ? { onProgress: req.onProgress } : {}),
        });
        // A remainder nothing else takes is free at once.
        r.notes.forEach((n, slot) => kept.has(slot) || wallet.reserved.delete(n.commitment));
        return r;
      } finally {
        // Spent, or free again: either way no longer held (a remainder once its split is done).
        for (const s of split.inputs)
          if ('note' in s) wallet.reserved.delete(s.note);
          else void runs[s.split]!.then((r) => wallet.reserved.delete(r.notes[s.slot]!.commitment), noop);
      }
    })();
  });

  const funded = await Promise.all(
    plan.funding.map(async (f, i): Promise<FundedNote> => {
      if (!f) return { status: 'failure', error: shortfall(req.mint, req.amounts[i]!, free) };
      if ('note' in f) return { status: 'success', note: byCommitment.get(f.note)! };
      try {
        return { status: 'success', note: (await runs[f.split]!).notes[f.slot]! };
      } catch (error) {
        return { status: 'failure', error: error as Error };
      }
    }),
  );
  const settled = await Promise.allSettled(runs);
  return {
    funded,
    splits: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
  };
}
