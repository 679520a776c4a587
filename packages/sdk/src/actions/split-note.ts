import type { Client } from '../client.js';
import { shortfall } from '../notes/fund.js';
import { runJoinSplit, type JoinSplitProgress, type JoinSplitReturnType } from '../notes/run-join-split.js';
import { takeFreeNotes } from '../notes/take-notes.js';
import { parseUnits } from '../core/utils/decimal.js';
import type { WalletNote } from '../wallet/wallet.js';
import { mintDecimals } from '../core/mint-decimals.js';
import { venueTree } from '../notes/choose-note.js';
import { describeAmount } from '../core/utils/asset-registry.js';
import {
  NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS,
  NIGHTJAR_ERROR__PARAMETER,
  NightjarError,
} from '../core/errors/index.js';

/** Options of every split. */
interface SplitNoteOptions {
  /** Mint (Base58) of the note. */
  mint: string;
  /**
   * The note to split (commitment). Default: with `amounts`, the smallest free note covering
   * their sum (one the venue's tree has first); with `into`, the largest free note.
   */
  commitment?: string;
  /** Wait until the venue's tree has the new notes, so they can back orders (default true). */
  waitUsable?: boolean;
  /** Bound of each wait for the venue's tree, in ms; default 20,000. */
  waitMs?: number;
  /** Told each stage: `proving`, `sending`, `landed`, `usable`. */
  onProgress?: (progress: JoinSplitProgress) => void;
}

/**
 * What to split, one of:
 * - `amounts`: the new notes (1 to 8), decimal strings in human units or bigints of atomic units;
 *   when they add up to less than the note, the remainder becomes one more note (last), so at most
 *   7 amounts then;
 * - `into: n`: n equal parts (2 to 8); the remainder of the division adds one atomic unit to each
 *   of the first parts.
 */
export type SplitNoteParameters = SplitNoteOptions &
  ({ amounts: readonly (string | bigint)[]; into?: undefined } | { into: number; amounts?: undefined });

/** The transaction, the note consumed (`spent`, one) and the new notes (in order, remainder last). */
export type SplitNoteReturnType = JoinSplitReturnType;

/** `amount` into `n` parts differing by at most one unit, larger first. */
function equalParts(amount: bigint, n: number): bigint[] {
  const base = amount / BigInt(n);
  const extra = Number(amount % BigInt(n));
  return Array.from({ length: n }, (_, i) => base + (i < extra ? 1n : 0n));
}

/** The smallest free note of `mint` covering `need`, preferring one the venue's tree has. */
async function coveringNote(client: Client, mint: string, need: bigint): Promise<string> {
  const free = client.wallet.freeNotes(mint);
  const covering = free.filter((n) => n.amount >= need);
  if (covering.length === 0) throw shortfall(mint, need, free);
  const has = await venueTree(client, covering);
  return (covering.find(has) ?? covering[0]!).commitment;
}

/** The note to split for `into`: the one named, else the largest free note. */
function largestNote(client: Client, mint: string): string {
  const free = client.wallet.freeNotes(mint);
  const largest = free[free.length - 1];
  if (!largest) throw shortfall(mint, 1n, free);
  return largest.commitment;
}

/**
 * Splits one free note into several of the same mint (a join-split: see `joinSplit`), so that one
 * deposit can back many orders. Nothing is sent when the amounts ask more than the note holds
 * (`JOIN_SPLIT_AMOUNTS`) or no note covers them (`INSUFFICIENT_NOTES`, naming the fix).
 *
 * @example
 * // 1,000 USDC deposited: four notes of 200 and the remainder (200) as a fifth.
 * const { notes } = await splitNote(client, { mint: USDC, amounts: ['200', '200', '200', '200'] });
 * // Or four equal parts of a given note.
 * await splitNote(client, { mint: USDC, commitment: note.commitment, into: 4 });
 */
export async function splitNote(client: Client, params: SplitNoteParameters): Promise<SplitNoteReturnType> {
  const { mint } = params;
  let asked: bigint[] | undefined;
  if (params.amounts !== undefined) {
    const decimals = params.amounts.some((a) => typeof a === 'string') ? await mintDecimals(client, mint) : 0;
    asked = params.amounts.map((a) => (typeof a === 'bigint' ? a : parseUnits(a, decimals, 'amount')));
    if (asked.length === 0 || asked.some((a) => a <= 0n))
      throw new NightjarError(NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS, {
        detail: 'a split needs 1 to 8 positive amounts',
        inputTotal: 0n,
        outputTotal: 0n,
      });
  } else if (!Number.isInteger(params.into) || params.into < 2 || params.into > 8)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, { detail: '`into` must be an integer from 2 to 8' });
  const sum = asked?.reduce((s, a) => s + a, 0n) ?? 0n;
  const commitment =
    params.commitment ?? (asked ? await coveringNote(client, mint, sum) : largestNote(client, mint));
  const [note] = takeFreeNotes(client, mint, [commitment]) as [WalletNote];
  try {
    const amounts = asked ? withRemainder(asked, note.amount, mint) : equalParts(note.amount, params.into!);
    return await runJoinSplit(client, {
      mint,
      inputs: [note],
      amounts,
      ...(params.waitUsable === undefined ? {} : { waitUsable: params.waitUsable }),
      ...(params.waitMs === undefined ? {} : { waitMs: params.waitMs }),
      ...(params.onProgress ? { onProgress: params.onProgress } : {}),
    });
  } finally {
    client.wallet.reserved.delete(note.commitment);
  }
}

/** `amounts`, plus what is left of `total` as one more note; `JOIN_SPLIT_AMOUNTS` when they ask too much. */
function withRemainder(amounts: readonly bigint[], total: bigint, mint: string): bigint[] {
  const sum = amounts.reduce((s, a) => s + a, 0n);
  if (sum > total)
    throw new NightjarError(NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS, {
      detail: `the new notes add up to ${describeAmount(mint, sum)}, more than the note holds (${describeAmount(mint, total)})`,
      inputTotal: total,
      outputTotal: sum,
    });
  const out = sum < total ? [...amounts, total - sum] : [...amounts];
  if (out.length > 8)
    throw new NightjarError(NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS, {
      detail: `${amounts.length} notes and the remainder make ${out.length}: a split creates at most 8`,
      inputTotal: total,
      outputTotal: sum,
    });
  return out;
}

/** What `splitNote` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type SplitNoteErrorType = NightjarError;
