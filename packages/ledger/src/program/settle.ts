/**
 * `settle_batch`: per match, consume the two locked inputs (bid, then ask), append the output
 * commitments, place the change notes' relocks and store the memos. The ledger never sees an
 * amount: a VALID_MATCH proof per match (judged at admission, see proof-checks.ts) binds the
 * nullifiers, outputs and relocks to notes of the recent roots and proves value conserved per mint.
 * Each match runs in its own savepoint, so a bad match fails alone.
 */
import { CHANGE_SLOT, MATCH_OUTPUT_SLOTS } from '@nightjar/crypto';
import { InstructionError } from '../errors.js';
import type { MarketRecord, MatchOutcome } from '../types.js';
import type { Args } from './args.js';
import {
  appendOutput,
  inSavepoint,
  knownRoot,
  requireProof,
  requireShard,
  requireTeeSigner,
  type ExecContext,
  type InstructionResult,
  type ProofVerdict,
} from './context.js';
import { checkLockable, placeLock, requireLocker } from './locks.js';

export type MatchArgs = Args<'settle_batch'>['matches'][number];

const RELOCK_SLOTS: ReadonlySet<number> = new Set(Object.values(CHANGE_SLOT));

export function requireMarket(ctx: ExecContext, marketId: string): MarketRecord {
  const market = ctx.state.markets.get(marketId);
  if (!market) throw new InstructionError('UnknownMarket');
  return market;
}

/** The checks of a batch as a whole: a TEE signer, distinct match indices, a known market. */
export function checkBatch(ctx: ExecContext, args: Args<'settle_batch'>): MarketRecord {
  requireTeeSigner(ctx);
  const seen = new Set<number>();
  for (const m of args.matches) {
    if (seen.has(m.match_idx)) throw new InstructionError('InvalidArgs', 'duplicate match_idx');
    seen.add(m.match_idx);
  }
  return requireMarket(ctx, args.market_id);
}

/** Every nullifier a match names: its inputs, then its relocks. */
function nullifiersOf(m: MatchArgs): string[] {
  return [
    ...m.inputs.map((i) => i.nullifier),
    ...m.outputs.flatMap((o) => (o.relock ? [o.relock.nullifier] : [])),
  ];
}

/**
 * Nullifiers named by more than one match of the batch. A match naming one fails, whatever the
 * order: otherwise one match could consume (or relock) what another just relocked.
 */
export function sharedNullifiers(args: Args<'settle_batch'>): Set<string> {
  const count = new Map<string, number>();
  for (const m of args.matches)
    for (const n of new Set(nullifiersOf(m))) count.set(n, (count.get(n) ?? 0) + 1);
  return new Set([...count].filter(([, k]) => k > 1).map(([n]) => n));
}

/**
 * The checks of one match before its proof, read-only (admission runs them too, and they are run
 * again when it lands): the output layout, no nullifier twice, both inputs locked by this signer
 * and live, their roots in the recent windows, the relocks lockable, the outputs new.
 */
export function checkMatch(ctx: ExecContext, m: MatchArgs, shared: ReadonlySet<string>): void {
  let last = -1;
  for (const out of m.outputs) {
    if (out.slot <= last) throw new InstructionError('InvalidArgs', 'output slots must strictly increase');
    last = out.slot;
    if (out.relock && !RELOCK_SLOTS.has(out.slot))
      throw new InstructionError('InvalidArgs', 'only a change output (slot 1 or 4) may be relocked');
    requireShard(ctx, out.tree_id);
    if (ctx.state.note(out.commitment)) throw new InstructionError('DuplicateCommitment');
  }
  if (new Set(m.outputs.map((o) => o.commitment)).size !== m.outputs.length)
    throw new InstructionError('DuplicateCommitment');
  const named = nullifiersOf(m);
  if (new Set(named).size !== named.length || named.some((n) => shared.has(n)))
    throw new InstructionError('InvalidArgs', 'a nullifier appears twice in the batch');
  for (const input of m.inputs) {
    if (ctx.state.nullifierKind(input.nullifier) !== undefined) throw new InstructionError('NoteSpent');
    const lock = ctx.state.lock(input.nullifier);
    if (!lock) throw new InstructionError('NotLocked');
    requireLocker(ctx, lock);
    if (lock.until_slot <= ctx.slot) throw new InstructionError('LockExpired');
    knownRoot(ctx, input.tree_id, input.merkle_root);
  }
  for (const out of m.outputs)
    if (out.relock) checkLockable(ctx, out.relock.nullifier, out.relock.until_slot);
}

export function settleBatch(ctx: ExecContext, args: Args<'settle_batch'>): InstructionResult {
  const market = checkBatch(ctx, args);
  const shared = sharedNullifiers(args);
  const matches: MatchOutcome[] = args.matches.map((m, i) => {
    const r = inSavepoint(ctx, () => settleMatch(ctx, market, m, shared, ctx.proofs[i]));
    return r.ok
      ? { match_idx: m.match_idx, ok: true, output_leaves: r.value }
      : { match_idx: m.match_idx, ok: false, err: r.err.toJSON() };
  });
  return { matches };
}

function settleMatch(
  ctx: ExecContext,
  market: MarketRecord,
  m: MatchArgs,
  shared: ReadonlySet<string>,
  verdict: ProofVerdict | undefined,
): { tree_id: number; leaf_index: number }[] {
  checkMatch(ctx, m, shared);
  requireProof(verdict);
  const mintOf = (side: 'base' | 'quote') => (side === 'base' ? market.base_mint : market.quote_mint);
  // The bid pays with quote, the ask with base (MATCH_OUTPUT_SLOTS).
  const [bid, ask] = m.inputs as [MatchArgs['inputs'][number], MatchArgs['inputs'][number]];
  for (const [input, mint] of [
    [bid, market.quote_mint],
    [ask, market.base_mint],
  ] as const) {
    ctx.state.deleteLock(input.nullifier);
    ctx.state.spendNullifier(input.nullifier, { kind: 'consumed', mint }, ctx.slot);
    ctx.touchedMints.add(mint);
  }
  const leaves = m.outputs.map((out) => {
    const leafIndex = appendOutput(
      ctx,
      out.tree_id,
      mintOf(MATCH_OUTPUT_SLOTS[out.slot]!.mint),
      out.commitment,
    );
    if (out.relock)
      placeLock(ctx, { nullifier: out.relock.nullifier, until_slot: Number(out.relock.until_slot) });
    return { tree_id: out.tree_id, leaf_index: leafIndex };
  });
  m.memos.forEach((memo, party) => ctx.memos.push({ match_idx: m.match_idx, party, memo }));
  return leaves;
}
