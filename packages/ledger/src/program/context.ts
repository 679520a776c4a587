/**
 * What every instruction handler runs with, and the checks and writes they share. Handlers validate
 * before they write and run inside the transaction's SQLite transaction, so a throw anywhere undoes
 * everything; tree appends are collected here and applied by the ledger once SQLite has committed.
 */
import { noteCommitment } from '@nightjar/crypto';
import { mintToFields, parseAddress } from '@nightjar/protocol';
import type { ChainState, VaultState } from '../chain-state.js';
import {
  InstructionError,
  COMMITMENT_LAG,
  type LockOutcome,
  type MatchOutcome,
} from '@nightjar/protocol/ledger-client';

export const MAX_TREE_LEAVES = 1 << 20;

/** The mint recorded for a join-split's notes, whose mint only their owner knows. */
export const HIDDEN_MINT = '';

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
  /** Memos to store with the transaction, in order. */
  memos: { match_idx: number; party: number; memo: string }[];
  /** Verdicts of the instruction's proofs, judged before it ran, in argument order. */
  proofs: readonly ProofVerdict[];
}

/**
 * One proof's verdict: verified (true, or the public inputs it was verified against when they
 * come from state that may change before it lands), invalid (false), or never verified because the
 * cheap checks before it already refused the request (that refusal; see prechecks.ts).
 */
export type ProofVerdict = boolean | InstructionError | VerifiedAgainst;

/** A proof verified against public inputs read from state at admission (a settlement's use tags). */
export interface VerifiedAgainst {
  verifiedAgainst: readonly bigint[];
}

/**
 * Passes only a verified proof; an unverified one fails with the refusal that spared its check.
 * With `inputsNow` (the public inputs as the state gives them at execution), a proof verified
 * against other inputs fails too: the state it was judged on moved (e.g. a lock was swapped).
 */
export function requireProof(verdict: ProofVerdict | undefined, inputsNow?: readonly bigint[]): void {
  if (verdict instanceof InstructionError) throw verdict;
  if (verdict === true && inputsNow === undefined) return;
  if (typeof verdict === 'object' && verdict !== null) {
    const then = verdict.verifiedAgainst;
    if (inputsNow === undefined) return;
    if (then.length === inputsNow.length && then.every((v, i) => v === inputsNow[i])) return;
  }
  throw new InstructionError('InvalidProof');
}

export type InstructionResult = {
  matches?: MatchOutcome[];
  locks?: LockOutcome[];
  leaf?: { tree_id: number; leaf_index: number };
  /** A join-split's outputs, in argument order. */
  leaves?: { tree_id: number; leaf_index: number }[];
} | null;

export function requireVault(ctx: ExecContext): VaultState {
  if (!ctx.state.vault) throw new InstructionError('NotInitialized');
  return ctx.state.vault;
}

export function requireAdmin(ctx: ExecContext): VaultState {
  const vault = requireVault(ctx);
  if (ctx.signer !== vault.admin)
    throw new InstructionError('Unauthorized', 'only the vault admin may do this');
  return vault;
}

/** The signer must belong to the signer set finalized at this slot. */
export function requireTeeSigner(ctx: ExecContext): void {
  requireVault(ctx);
  const keys = ctx.state.teeKeysAt(ctx.slot - COMMITMENT_LAG.finalized);
  if (!keys.includes(ctx.signer))
    throw new InstructionError('Unauthorized', 'signer is not in the finalized TEE signer set');
}

export function requireMint(ctx: ExecContext, mint: string): { decimals: number } {
  const info = ctx.state.mints.get(mint);
  if (!info) throw new InstructionError('UnknownMint');
  return info;
}

export function requireShard(ctx: ExecContext, treeId: number): void {
  if (treeId >= requireVault(ctx).num_trees) throw new InstructionError('BadTreeId');
}

/** `root` must be a root shard `treeId` ever had (root-history.ts), not only a recent one. */
export function knownRoot(ctx: ExecContext, treeId: number, root: string): void {
  requireShard(ctx, treeId);
  if (!ctx.state.isKnownRoot(treeId, root)) throw new InstructionError('UnknownRoot');
}

/** Reserves the next leaf index of a shard within this transaction. */
function reserveLeaf(ctx: ExecContext, treeId: number, commitment: bigint): number {
  const pending = ctx.appends.get(treeId) ?? [];
  // The shard's first append of this transaction (one step) ends its current root.
  if (pending.length === 0) ctx.state.recordRootBeforeAppend(treeId);
  const index = ctx.state.requireTrees().size(treeId) + pending.length;
  if (index >= MAX_TREE_LEAVES) throw new InstructionError('TreeFull');
  pending.push(commitment);
  ctx.appends.set(treeId, pending);
  return index;
}

/** Creates a deposit's note from its public parts; the ledger recomputes the commitment itself. */
export function createNote(
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
  return { commitment, leafIndex: appendLeaf(ctx, treeId, mint, commitment, amount) };
}

/**
 * Appends a settlement output: its commitment as VALID_MATCH proved it, of a mint known from its
 * slot and an amount only its owner knows.
 */
export function appendOutput(ctx: ExecContext, treeId: number, mint: string, commitment: string): number {
  requireShard(ctx, treeId);
  return appendLeaf(ctx, treeId, mint, commitment, null);
}

function appendLeaf(
  ctx: ExecContext,
  treeId: number,
  mint: string,
  commitment: string,
  amount: bigint | null,
): number {
  if (ctx.state.note(commitment)) throw new InstructionError('DuplicateCommitment');
  const leafIndex = reserveLeaf(ctx, treeId, BigInt('0x' + commitment));
  ctx.state.insertNote(
    { commitment, tree_id: treeId, leaf_index: leafIndex, mint, amount: amount?.toString() ?? null },
    ctx.slot,
    ctx.txSeq,
  );
  // A hidden mint has no token side to check (the join-split moves no tokens).
  if (mint !== HIDDEN_MINT) ctx.touchedMints.add(mint);
  return leafIndex;
}

/**
 * Runs `fn` in a savepoint so that one failing item of a batch (a match, a lock) rolls back only
 * its own writes and pending appends and memos; other errors still sink the whole transaction.
 */
export function inSavepoint<T>(
  ctx: ExecContext,
  fn: () => T,
): { ok: true; value: T } | { ok: false; err: InstructionError } {
  const appendsBefore = new Map([...ctx.appends].map(([k, v]) => [k, v.length]));
  const memosBefore = ctx.memos.length;
  try {
    return { ok: true, value: ctx.state.db.transaction(fn)() };
  } catch (err) {
    if (!(err instanceof InstructionError)) throw err;
    for (const [treeId, list] of ctx.appends) list.length = appendsBefore.get(treeId) ?? 0;
    ctx.memos.length = memosBefore;
    return { ok: false, err };
  }
}
