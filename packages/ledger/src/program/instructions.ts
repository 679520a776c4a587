/**
 * The vault program. Each handler validates before it writes; it runs inside the transaction's
 * SQLite transaction, so a throw anywhere undoes everything it wrote. Tree appends are collected
 * and applied by the ledger after the SQLite transaction commits.
 */
import { noteCommitment } from '@nightjar/crypto';
import { mintToFields, parseAddress, U64_MAX } from '@nightjar/protocol';
import { marketAddress, mintAddress, VAULT_ADDRESS } from '../addresses.js';
import type { ChainState, VaultState } from '../chain-state.js';
import { InstructionError } from '../errors.js';
import { COMMITMENT_LAG, type MarketRecord, type MatchOutcome } from '../types.js';
import type { Args, InstructionName } from './args.js';

export const LOCK_TTL_CEILING_SLOTS = 4500;
export const MAX_TREE_LEAVES = 1 << 20;

/** What an instruction may touch, besides the state itself. */
export interface ExecContext {
  state: ChainState;
  signer: string;
  slot: number;
  txSeq: number;
  /** Leaves to append per shard once the SQLite transaction commits. */
  appends: Map<number, bigint[]>;
  /** Mints whose solvency must be re-checked before commit. */
  touchedMints: Set<string>;
  /** Memos to store with the transaction. */
  memos: { match_idx: number; party: number; memo: string }[];
  /** Verdicts of proofs checked before the transaction ran (keyed by instruction). */
  proofOk: boolean | undefined;
}

export type InstructionResult = {
  matches?: MatchOutcome[];
  leaf?: { tree_id: number; leaf_index: number };
} | null;

function requireVault(ctx: ExecContext): VaultState {
  if (!ctx.state.vault) throw new InstructionError('NotInitialized');
  return ctx.state.vault;
}

function requireAdmin(ctx: ExecContext): VaultState {
  const vault = requireVault(ctx);
  if (ctx.signer !== vault.admin)
    throw new InstructionError('Unauthorized', 'only the vault admin may do this');
  return vault;
}

/** The signer must belong to the signer set finalized at this slot. */
function requireTeeSigner(ctx: ExecContext): void {
  requireVault(ctx);
  const keys = ctx.state.teeKeysAt(ctx.slot - COMMITMENT_LAG.finalized);
  if (!keys.includes(ctx.signer))
    throw new InstructionError('Unauthorized', 'signer is not in the finalized TEE signer set');
}

function requireMint(ctx: ExecContext, mint: string): { decimals: number } {
  const info = ctx.state.mints.get(mint);
  if (!info) throw new InstructionError('UnknownMint');
  return info;
}

function requireShard(ctx: ExecContext, treeId: number): void {
  if (treeId >= requireVault(ctx).num_trees) throw new InstructionError('BadTreeId');
}

/** Reserves the next leaf index of a shard within this transaction. */
function reserveLeaf(ctx: ExecContext, treeId: number, commitment: bigint): number {
  const pending = ctx.appends.get(treeId) ?? [];
  const index = ctx.state.requireTrees().size(treeId) + pending.length;
  if (index >= MAX_TREE_LEAVES) throw new InstructionError('TreeFull');
  pending.push(commitment);
  ctx.appends.set(treeId, pending);
  return index;
}

/** Creates a note from its public parts; the ledger recomputes the commitment itself. */
function createNote(
  ctx: ExecContext,
  treeId: number,
  mint: string,
  amount: bigint,
  openingHash: string,
): { commitment: string; leafIndex: number } {
  requireShard(ctx, treeId);
  requireMint(ctx, mint);
  if (amount === 0n) throw new InstructionError('InvalidArgs', 'note amount must be positive');
  const { mintHi, mintLo } = mintToFields(parseAddress(mint)!);
  const value = noteCommitment({ mintLo, mintHi, amount, openingHash: BigInt('0x' + openingHash) });
  const commitment = value.toString(16).padStart(64, '0');
  if (ctx.state.note(commitment)) throw new InstructionError('DuplicateCommitment');
  const leafIndex = reserveLeaf(ctx, treeId, value);
  ctx.state.insertNote(
    { commitment, tree_id: treeId, leaf_index: leafIndex, mint, amount: amount.toString() },
    ctx.slot,
    ctx.txSeq,
  );
  ctx.touchedMints.add(mint);
  return { commitment, leafIndex };
}

function knownRoot(ctx: ExecContext, treeId: number, root: string): void {
  requireShard(ctx, treeId);
  if (!ctx.state.requireTrees().isKnownRoot(treeId, BigInt('0x' + root)))
    throw new InstructionError('UnknownRoot');
}

type Handler<N extends InstructionName> = (ctx: ExecContext, args: Args<N>) => InstructionResult;

export const handlers: { [N in InstructionName]: Handler<N> } = {
  initialize(ctx, args) {
    if (ctx.state.vault) throw new InstructionError('AlreadyInitialized');
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
    knownRoot(ctx, args.tree_id, args.merkle_root);
    const note = ctx.state.note(args.note_commitment);
    if (!note || note.tree_id !== args.tree_id) throw new InstructionError('UnknownNote');
    if (note.mint !== args.mint) throw new InstructionError('MintMismatch');
    if (ctx.state.nullifierKind(args.nullifier) !== undefined) throw new InstructionError('NoteSpent');
    const existing = ctx.state.lock(args.nullifier);
    if (existing && existing.until_slot > ctx.slot) throw new InstructionError('NoteLocked');
    const until = BigInt(args.until_slot);
    if (until <= BigInt(ctx.slot) || until > BigInt(ctx.slot + LOCK_TTL_CEILING_SLOTS))
      throw new InstructionError('BadLockExpiry');
    if (ctx.proofOk !== true) throw new InstructionError('InvalidProof');
    if (existing) ctx.state.deleteLock(args.nullifier);
    ctx.state.insertLock(
      {
        nullifier: args.nullifier,
        note_commitment: args.note_commitment,
        order_id: args.order_id,
        until_slot: Number(until),
        locker: ctx.signer,
      },
      ctx.slot,
    );
    return null;
  },

  settle_batch(ctx, args) {
    requireTeeSigner(ctx);
    const seen = new Set<number>();
    const matches: MatchOutcome[] = [];
    for (const m of args.matches) {
      if (seen.has(m.match_idx)) throw new InstructionError('InvalidArgs', 'duplicate match_idx');
      seen.add(m.match_idx);
    }
    for (const m of args.matches) {
      const appendsBefore = new Map([...ctx.appends].map(([k, v]) => [k, v.length]));
      const memosBefore = ctx.memos.length;
      try {
        // A savepoint per match: one bad match does not sink the others.
        const outputs = ctx.state.db.transaction(() => settleMatch(ctx, m))();
        matches.push({ match_idx: m.match_idx, ok: true, output_leaves: outputs });
      } catch (err) {
        if (!(err instanceof InstructionError)) throw err;
        for (const [treeId, list] of ctx.appends) list.length = appendsBefore.get(treeId) ?? 0;
        ctx.memos.length = memosBefore;
        matches.push({ match_idx: m.match_idx, ok: false, err: err.toJSON() });
      }
    }
    return { matches };
  },

  release_lock(ctx, args) {
    requireVault(ctx);
    const lock = ctx.state.lock(args.nullifier);
    if (!lock) throw new InstructionError('NotLocked');
    if (lock.until_slot > ctx.slot) throw new InstructionError('LockActive');
    ctx.state.deleteLock(args.nullifier);
    return null;
  },

  withdraw(ctx, args) {
    requireVault(ctx);
    knownRoot(ctx, args.tree_id, args.merkle_root);
    requireMint(ctx, args.mint);
    const amount = BigInt(args.amount);
    if (amount === 0n || amount > U64_MAX)
      throw new InstructionError('InvalidArgs', 'amount must be a positive u64');
    if (ctx.state.nullifierKind(args.nullifier) !== undefined) throw new InstructionError('NoteSpent');
    const lock = ctx.state.lock(args.nullifier);
    if (lock && lock.until_slot > ctx.slot) throw new InstructionError('NoteLocked');
    if (ctx.proofOk !== true) throw new InstructionError('InvalidProof');
    if (lock) ctx.state.deleteLock(args.nullifier);
    ctx.state.spendNullifier(args.nullifier, args.mint, amount, 'withdrawn', ctx.slot);
    ctx.state.transfer(VAULT_ADDRESS, args.recipient, args.mint, amount);
    ctx.touchedMints.add(args.mint);
    return null;
  },
};

type MatchArgs = Args<'settle_batch'>['matches'][number];

function settleMatch(ctx: ExecContext, m: MatchArgs): { tree_id: number; leaf_index: number }[] {
  const balance = new Map<string, bigint>();
  const add = (mint: string, v: bigint) => balance.set(mint, (balance.get(mint) ?? 0n) + v);
  if (new Set(m.inputs).size !== m.inputs.length)
    throw new InstructionError('InvalidArgs', 'duplicate input');
  for (const nullifier of m.inputs) {
    if (ctx.state.nullifierKind(nullifier) !== undefined) throw new InstructionError('NoteSpent');
    const lock = ctx.state.lock(nullifier);
    if (!lock) throw new InstructionError('NotLocked');
    if (lock.until_slot <= ctx.slot) throw new InstructionError('LockExpired');
    const note = ctx.state.note(lock.note_commitment);
    if (!note) throw new InstructionError('UnknownNote');
    ctx.state.deleteLock(nullifier);
    ctx.state.spendNullifier(nullifier, note.mint, BigInt(note.amount), 'consumed', ctx.slot);
    ctx.touchedMints.add(note.mint);
    add(note.mint, BigInt(note.amount));
  }
  const leaves: { tree_id: number; leaf_index: number }[] = [];
  for (const out of m.outputs) {
    const amount = BigInt(out.amount);
    const { leafIndex } = createNote(ctx, out.tree_id, out.mint, amount, out.opening_hash);
    add(out.mint, -amount);
    leaves.push({ tree_id: out.tree_id, leaf_index: leafIndex });
  }
  for (const v of balance.values()) if (v !== 0n) throw new InstructionError('ValueNotConserved');
  m.memos.forEach((memo, party) => ctx.memos.push({ match_idx: m.match_idx, party, memo }));
  return leaves;
}
