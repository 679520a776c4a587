/**
 * `settle_batch` (settlement v2, issue 29): per match, consume the two locked inputs (bid, then
 * ask), append all six outputs (zero-value ones too, so no output's absence says anything) and
 * store both parties' memos. The ledger never sees an amount: a VALID_MATCH v2 proof per match
 * (judged at admission, see proof-checks.ts) opens the use tags the two locks recorded and binds
 * both orders' terms, the outputs, their shards and the memos. There is no relock: a partial
 * fill's change note is locked again at its next match, with its own VALID_LOCK proof. Each match
 * runs in its own savepoint, so a bad match fails alone; a batch past its `settle_by_slot` fails
 * whole.
 */
import { MATCH_OUTPUT_SLOTS } from '@nightjar/crypto';
import { InstructionError, type MarketRecord, type MatchOutcome } from '@nightjar/protocol/ledger-client';
import type { Args, MatchArgs } from './args.js';
import {
  appendOutput,
  inSavepoint,
  requireProof,
  requireShard,
  requireTeeSigner,
  type ExecContext,
  type InstructionResult,
  type ProofVerdict,
} from './context.js';
import { requireLocker } from './locks.js';
import { lockedUseTags, validMatchJob } from './proof-checks.js';

export function requireMarket(ctx: ExecContext, marketId: string): MarketRecord {
  const market = ctx.state.markets.get(marketId);
  if (!market) throw new InstructionError('UnknownMarket');
  return market;
}

/**
 * The checks of a batch as a whole: a TEE signer, not past its `settle_by_slot` (every match's
 * proof binds it), distinct match indices, a known market.
 */
export function checkBatch(ctx: ExecContext, args: Args<'settle_batch'>): MarketRecord {
  requireTeeSigner(ctx);
  if (BigInt(ctx.slot) > args.settle_by_slot) throw new InstructionError('SettlementExpired');
  const seen = new Set<number>();
  for (const m of args.matches) {
    if (seen.has(m.match_idx)) throw new InstructionError('InvalidArgs', 'duplicate match_idx');
    seen.add(m.match_idx);
  }
  return requireMarket(ctx, args.market_id);
}

/** Nullifiers named by more than one match of the batch: a match naming one fails, whatever the order. */
export function sharedNullifiers(args: Args<'settle_batch'>): Set<string> {
  const count = new Map<string, number>();
  for (const m of args.matches)
    for (const n of new Set(m.inputs.map((i) => i.nullifier))) count.set(n, (count.get(n) ?? 0) + 1);
  return new Set([...count].filter(([, k]) => k > 1).map(([n]) => n));
}

/**
 * The checks of one match before its proof, read-only (admission runs them too, and they are run
 * again when it lands): the outputs' shards and novelty, no nullifier twice, both inputs locked by
 * this signer, live, with a use tag.
 */
export function checkMatch(ctx: ExecContext, m: MatchArgs, shared: ReadonlySet<string>): void {
  for (const out of m.outputs) {
    requireShard(ctx, out.tree_id);
    if (ctx.state.note(out.commitment)) throw new InstructionError('DuplicateCommitment');
  }
  if (new Set(m.outputs.map((o) => o.commitment)).size !== m.outputs.length)
    throw new InstructionError('DuplicateCommitment');
  const named = m.inputs.map((i) => i.nullifier);
  if (new Set(named).size !== named.length || named.some((n) => shared.has(n)))
    throw new InstructionError('InvalidArgs', 'a nullifier appears twice in the batch');
  for (const input of m.inputs) {
    if (ctx.state.nullifierKind(input.nullifier) !== undefined) throw new InstructionError('NoteSpent');
    const lock = ctx.state.lock(input.nullifier);
    if (!lock) throw new InstructionError('NotLocked');
    requireLocker(ctx, lock);
    if (lock.until_slot <= ctx.slot) throw new InstructionError('LockExpired');
    if (lock.use_tag === null)
      throw new InstructionError(
        'NotLocked',
        'the lock predates settlement v2 (no use tag): release it and lock again',
      );
  }
}

export function settleBatch(ctx: ExecContext, args: Args<'settle_batch'>): InstructionResult {
  const market = checkBatch(ctx, args);
  const shared = sharedNullifiers(args);
  const matches: MatchOutcome[] = args.matches.map((m, i) => {
    const r = inSavepoint(ctx, () => settleMatch(ctx, market, args.settle_by_slot, m, shared, ctx.proofs[i]));
    return r.ok
      ? { match_idx: m.match_idx, ok: true, output_leaves: r.value }
      : { match_idx: m.match_idx, ok: false, err: r.err.toJSON() };
  });
  return { matches };
}

function settleMatch(
  ctx: ExecContext,
  market: MarketRecord,
  settleBySlot: bigint,
  m: MatchArgs,
  shared: ReadonlySet<string>,
  verdict: ProofVerdict | undefined,
): { tree_id: number; leaf_index: number }[] {
  checkMatch(ctx, m, shared);
  // The proof was verified against the use tags the locks held at admission: they must still be
  // the ones the locks hold now (a lock released and made again for another order is not).
  const tags = lockedUseTags(ctx, m)!;
  const feeOwner = ctx.state.vault!.fee_owner_commitment;
  requireProof(verdict, validMatchJob(market, feeOwner, settleBySlot, m, tags).publicInputs);
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
  const mintOf = (slot: number) =>
    MATCH_OUTPUT_SLOTS[slot]!.mint === 'base' ? market.base_mint : market.quote_mint;
  const leaves = m.outputs.map((out, slot) => ({
    tree_id: out.tree_id,
    leaf_index: appendOutput(ctx, out.tree_id, mintOf(slot), out.commitment),
  }));
  m.memos.forEach((memo, party) => ctx.memos.push({ match_idx: m.match_idx, party, memo }));
  return leaves;
}
