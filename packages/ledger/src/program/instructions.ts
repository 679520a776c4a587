/**
 * The vault program: one handler per instruction. Each validates before it writes and runs inside
 * the transaction's SQLite transaction (see context.ts), so a throw anywhere undoes everything.
 */
import { U64_MAX } from '@nightjar/protocol';
import {
  marketAddress,
  mintAddress,
  VAULT_ADDRESS,
  InstructionError,
  type LockOutcome,
  type MarketRecord,
} from '@nightjar/protocol/ledger-client';
import type { LockRow, VaultState } from '../chain-state.js';
import type { Args, InstructionName } from './args.js';
import {
  appendOutput,
  createNote,
  inSavepoint,
  knownRoot,
  requireAdmin,
  requireMint,
  requireProof,
  requireShard,
  requireTeeSigner,
  requireVault,
  type ExecContext,
  type InstructionResult,
} from './context.js';
import { joinSplit } from './join-split.js';
import { lockNote, requireLocker } from './locks.js';
import { settleBatch } from './settle.js';

type Handler<N extends InstructionName> = (ctx: ExecContext, args: Args<N>) => InstructionResult;

export const handlers: { [N in InstructionName]: Handler<N> } = {
  initialize(ctx, args) {
    if (ctx.state.vault) throw new InstructionError('AlreadyInitialized');
    const genesis = ctx.state.genesis;
    if (genesis && ctx.signer !== genesis.admin)
      throw new InstructionError('Unauthorized', 'only the configured genesis authority may initialize');
    if (genesis && args.fee_owner_commitment !== genesis.fee_owner_commitment)
      throw new InstructionError('InvalidArgs', 'fee_owner_commitment differs from the configured one');
    if (args.num_trees < 1) throw new InstructionError('InvalidArgs', 'num_trees must be at least 1');
    const vault: VaultState = {
      admin: ctx.signer,
      fee_owner_commitment: args.fee_owner_commitment,
      num_trees: args.num_trees,
      tee_history: [],
    };
    ctx.state.saveVault(vault);
    return null;
  },

  set_tee_keys(ctx, args) {
    const vault = requireAdmin(ctx);
    if (new Set(args.keys).size !== args.keys.length)
      throw new InstructionError('InvalidArgs', 'duplicate TEE key');
    const history = vault.tee_history.filter((e) => e.slot < ctx.slot);
    ctx.state.saveVault({ ...vault, tee_history: [...history, { slot: ctx.slot, keys: [...args.keys] }] });
    return null;
  },

  create_mint(ctx, args) {
    requireAdmin(ctx);
    const address = mintAddress(args.label);
    if (ctx.state.mints.has(address)) throw new InstructionError('InvalidArgs', 'mint exists');
    ctx.state.db
      .prepare('INSERT INTO mints (address, decimals, label) VALUES (?, ?, ?)')
      .run(address, args.decimals, args.label);
    return null;
  },

  create_market(ctx, args) {
    requireAdmin(ctx);
    const base = requireMint(ctx, args.base_mint);
    const quote = requireMint(ctx, args.quote_mint);
    if (args.base_mint === args.quote_mint)
      throw new InstructionError('InvalidArgs', 'base and quote mints must differ');
    const price_scale = BigInt(args.price_scale);
    const tick = BigInt(args.tick_size);
    const min = BigInt(args.min_order_size);
    const fee = BigInt(args.fee_bps);
    if (price_scale === 0n || tick === 0n || min === 0n)
      throw new InstructionError('InvalidArgs', 'price_scale, tick_size and min_order_size must be positive');
    if (fee > 10_000n) throw new InstructionError('InvalidArgs', 'fee_bps must be at most 10000');
    const market_id = marketAddress(args.symbol);
    if (ctx.state.markets.has(market_id)) throw new InstructionError('MarketExists');
    const record: MarketRecord = {
      symbol: args.symbol,
      market_id,
      base_mint: args.base_mint,
      quote_mint: args.quote_mint,
      base_decimals: base.decimals,
      quote_decimals: quote.decimals,
      price_scale: args.price_scale.toString(),
      tick_size: args.tick_size.toString(),
      min_order_size: args.min_order_size.toString(),
      fee_bps: args.fee_bps.toString(),
      trading_enabled: args.trading_enabled ?? true,
    };
    const seq = ctx.state.markets.size;
    ctx.state.db
      .prepare('INSERT INTO markets (market_id, symbol, record, seq) VALUES (?, ?, ?, ?)')
      .run(market_id, args.symbol, JSON.stringify(record), seq);
    return null;
  },

  deposit(ctx, args) {
    requireVault(ctx);
    const amount = BigInt(args.amount);
    const { commitment, leafIndex } = createNote(ctx, args.tree_id, args.mint, amount, args.opening_hash);
    if (commitment !== args.note_commitment) throw new InstructionError('CommitmentMismatch');
    ctx.state.transfer(ctx.signer, VAULT_ADDRESS, args.mint, amount);
    return { leaf: { tree_id: args.tree_id, leaf_index: leafIndex } };
  },

  lock_note(ctx, args) {
    requireTeeSigner(ctx);
    lockNote(ctx, args, ctx.proofs[0]);
    return null;
  },

  lock_notes(ctx, args) {
    requireTeeSigner(ctx);
    // Each lock stands alone (like a settlement's matches): one refused lock does not sink the rest.
    const locks: LockOutcome[] = args.locks.map((lock, i) => {
      const r = inSavepoint(ctx, () => lockNote(ctx, lock, ctx.proofs[i]));
      return r.ok
        ? { nullifier: lock.nullifier, ok: true }
        : { nullifier: lock.nullifier, ok: false, err: r.err.toJSON() };
    });
    return { locks };
  },

  settle_batch: settleBatch,

  release_lock(ctx, args) {
    requireVault(ctx);
    const lock = ctx.state.lock(args.nullifier);
    if (!lock) throw new InstructionError('NotLocked');
    // The locker may free its lock before expiry (an engine whose order left the book frees the
    // owner's note at once); everyone else is refused by requireLocker.
    requireLocker(ctx, lock);
    ctx.state.deleteLock(args.nullifier);
    return null;
  },

  join_split: joinSplit,

  withdraw(ctx, args) {
    const { amount, lock } = checkWithdrawRequest(ctx, args);
    requireProof(ctx.proofs[0]);
    if (lock) ctx.state.deleteLock(args.nullifier);
    // The note's value leaves the note side as `amount` (public); the proof put the rest in the
    // change note, appended with no amount like a settlement output, so the note side stays exact.
    ctx.state.spendNullifier(args.nullifier, { kind: 'withdrawn', mint: args.mint, amount }, ctx.slot);
    ctx.state.transfer(VAULT_ADDRESS, args.recipient, args.mint, amount);
    ctx.touchedMints.add(args.mint);
    if (!args.change) return null;
    const leafIndex = appendOutput(ctx, args.change.tree_id, args.mint, args.change.commitment);
    ctx.memos.push({ match_idx: 0, party: 0, memo: args.change.memo });
    return { leaf: { tree_id: args.change.tree_id, leaf_index: leafIndex } };
  },
};

/**
 * The checks of a withdrawal before its proof: a known root and mint, a positive amount, a note
 * neither spent nor under a live lock, a change (if any) to a real shard and not already a leaf. Read-only, so admission runs them too. Nothing here looks
 * the note up: VALID_SPEND proves it is under the root with this mint and amount, so a settlement
 * output (whose amount the ledger never learns) withdraws like a deposit's note.
 */
export function checkWithdrawRequest(
  ctx: ExecContext,
  args: Args<'withdraw'>,
): { amount: bigint; lock: LockRow | undefined } {
  requireVault(ctx);
  knownRoot(ctx, args.tree_id, args.merkle_root);
  requireMint(ctx, args.mint);
  const amount = BigInt(args.amount);
  if (amount === 0n || amount > U64_MAX)
    throw new InstructionError('InvalidArgs', 'amount must be a positive u64');
  if (ctx.state.nullifierKind(args.nullifier) !== undefined) throw new InstructionError('NoteSpent');
  const lock = ctx.state.lock(args.nullifier);
  if (lock && lock.until_slot > ctx.slot) throw new InstructionError('NoteLocked');
  if (args.change) {
    requireShard(ctx, args.change.tree_id);
    if (ctx.state.note(args.change.commitment)) throw new InstructionError('DuplicateCommitment');
  }
  return { amount, lock };
}
