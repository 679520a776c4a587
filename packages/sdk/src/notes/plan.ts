/**
 * Planning notes of given amounts from the notes a wallet has (pure: no I/O). Used to back a ladder
 * of orders from one deposit, or an order no single note covers.
 *
 * 1. An amount with a free note of exactly that value takes it.
 * 2. With `allowLarger`, when the notes left can give every other amount a note of its own at least
 *    that large (largest amount first, each the smallest such note), they do: no split (an order
 *    declares `collateral_amount` and its surplus returns as change).
 * 3. Otherwise the other amounts come from join-splits, in the order given: up to 8 amounts per
 *    split (7 when there is a remainder, which becomes one more output), from the smallest single
 *    note that covers them, else from up to 4 notes merged (largest first). A remainder can fund a
 *    later split of the plan (a chain: that split waits for the first to land and be usable). An
 *    amount nothing covers is left unfunded.
 */
import { JOIN_SPLIT_MAX_INPUTS, JOIN_SPLIT_MAX_OUTPUTS } from '@nightjar/crypto';

/** A free note as the planner sees it. */
export interface PlanNote {
  commitment: string;
  amount: bigint;
}

/** Where a note comes from: an existing note, or output `slot` of the plan's split number `split`. */
export type PlanSource = { note: string } | { split: number; slot: number };

/** One join-split of a plan. */
export interface PlannedSplit {
  /** Consumed notes (1 to 4): existing notes, or remainders of earlier splits of the plan. */
  inputs: PlanSource[];
  /** New notes' amounts in slot order: the funded amounts, then the remainder when there is one. */
  outputs: bigint[];
}

/** A funding plan for a list of amounts. */
export interface NotePlan {
  /** Per requested amount, in order: its note's source, or undefined when nothing covers it. */
  funding: (PlanSource | undefined)[];
  splits: PlannedSplit[];
}

interface Source {
  src: PlanSource;
  amount: bigint;
}

const sum = (xs: readonly bigint[]) => xs.reduce((s, x) => s + x, 0n);
const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** Plans notes for `amounts` (each positive) from the free `notes` (see the module comment). */
export function planNotes(
  amounts: readonly bigint[],
  notes: readonly PlanNote[],
  options: { allowLarger: boolean },
): NotePlan {
  const funding: (PlanSource | undefined)[] = amounts.map(() => undefined);
  const left = [...notes].sort((a, b) => cmp(a.amount, b.amount));
  const take = (i: number) => left.splice(i, 1)[0]!;

  // 1. Exact notes.
  amounts.forEach((amount, i) => {
    const at = left.findIndex((n) => n.amount === amount);
    if (at >= 0) funding[i] = { note: take(at).commitment };
  });
  let rest = amounts.flatMap((_, i) => (funding[i] ? [] : [i]));

  // 2. A larger note each, when there are enough for all.
  if (options.allowLarger && rest.length > 0) {
    const pool = [...left];
    const byNeed = [...rest].sort((a, b) => cmp(amounts[b]!, amounts[a]!));
    const picks = new Map<number, PlanNote>();
    for (const i of byNeed) {
      const at = pool.findIndex((n) => n.amount >= amounts[i]!);
      if (at < 0) break;
      picks.set(i, pool.splice(at, 1)[0]!);
    }
    if (picks.size === rest.length) {
      for (const [i, n] of picks) funding[i] = { note: n.commitment };
      return { funding, splits: [] };
    }
  }

  // 3. Join-splits, in the order the amounts were given.
  const sources: Source[] = left.map((n) => ({ src: { note: n.commitment }, amount: n.amount }));
  const splits: PlannedSplit[] = [];
  while (rest.length > 0) {
    let planned = false;
    for (let size = Math.min(JOIN_SPLIT_MAX_OUTPUTS, rest.length); size >= 1 && !planned; size--) {
      const chunk = rest.slice(0, size);
      const need = sum(chunk.map((i) => amounts[i]!));
      const inputs = pickInputs(sources, need);
      if (!inputs) continue;
      const remainder = sum(inputs.map((s) => s.amount)) - need;
      if (remainder > 0n && size === JOIN_SPLIT_MAX_OUTPUTS) continue;
      const k = splits.length;
      splits.push({
        inputs: inputs.map((s) => s.src),
        outputs: [...chunk.map((i) => amounts[i]!), ...(remainder > 0n ? [remainder] : [])],
      });
      chunk.forEach((i, slot) => (funding[i] = { split: k, slot }));
      for (const s of inputs) sources.splice(sources.indexOf(s), 1);
      if (remainder > 0n) sources.push({ src: { split: k, slot: size }, amount: remainder });
      rest = rest.slice(size);
      planned = true;
    }
    if (!planned) rest = rest.slice(1); // nothing covers it, even alone
  }
  return { funding, splits };
}

/**
 * The inputs of a split that must yield `need`: the smallest single source covering it (existing
 * notes before remainders, which would make a chain), else up to 4 sources, largest first.
 */
function pickInputs(sources: readonly Source[], need: bigint): Source[] | undefined {
  const existing = (s: Source) => 'note' in s.src;
  const covering = sources
    .filter((s) => s.amount >= need)
    .sort((a, b) => (existing(a) !== existing(b) ? (existing(a) ? -1 : 1) : cmp(a.amount, b.amount)));
  if (covering[0]) return [covering[0]];
  const largest = [...sources].sort((a, b) => cmp(b.amount, a.amount));
  const picked: Source[] = [];
  let total = 0n;
  for (const s of largest.slice(0, JOIN_SPLIT_MAX_INPUTS)) {
    picked.push(s);
    total += s.amount;
    if (total >= need) return picked;
  }
  return undefined;
}

/** The splits `split` depends on (those whose remainders it consumes). */
export function dependencies(split: PlannedSplit): number[] {
  return split.inputs.flatMap((s) => ('split' in s ? [s.split] : []));
}
