/**
 * What the note commands (`wallet deposit|split|merge|withdraw`) share: the synced wallet and the
 * asset acted on, notes in human units, the progress text of a join-split, waiting for a note to be
 * final, the errors of a note that cannot be used (naming the fix, in the asset's units) and the
 * hint to merge small notes.
 */
import {
  formatUnits,
  isNightjarError,
  INSUFFICIENT_NOTES_CODES,
  NIGHTJAR_ERROR__INSUFFICIENT_NOTES,
  NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS,
  NIGHTJAR_ERROR__NOTE_NOT_FREE,
  NIGHTJAR_ERROR__NOTES_PENDING,
  NIGHTJAR_ERROR__NOTHING_TO_MERGE,
  mergeCandidates,
  NOTE_NOT_FREE_FIXES,
  nightjarErrorFix,
  syncWallet,
  waitForInclusion,
  type Client,
  type JoinSplitProgress,
  type NoteNotFreeReason,
  type Wallet,
  type WalletNote,
} from '@nightjar/sdk';
import { listAssets, resolveAsset, type Asset } from './assets.js';
import { UsageError } from './args.js';
import { cliFix, NOTE_NOT_FREE_COMMANDS, withCommand } from './fix-commands.js';
import { CliError, EXIT } from './exit-codes.js';
import type { Output, SetStage } from './output.js';

/** How long a command waits for a new note to be final (in the venue's tree), as `wallet deposit` does. */
export const FINAL_WAIT_MS = 60_000;

/** A note as the note commands print it (human units, like `wallet notes`). */
export interface NoteRow {
  commitment: string;
  amount: string;
  asset: string;
}

export function noteRow(n: WalletNote, asset: Asset): NoteRow {
  return { commitment: n.commitment, amount: formatUnits(n.amount, asset.decimals), asset: asset.name };
}

/** `12.5 USDC`. */
export function units(amount: bigint, asset: Asset): string {
  return `${formatUnits(amount, asset.decimals)} ${asset.name}`;
}

/** The stage a join-split waits in before its `proving` stage: the venue's tree must have the inputs. */
export const WAITING_FOR_INPUTS = "waiting for the venue's tree";

/** A join-split's stage as the progress line shows it. */
export function joinSplitStage(p: JoinSplitProgress): string {
  switch (p.stage) {
    case 'proving':
      return `proving (${p.inputs.length} note${p.inputs.length === 1 ? '' : 's'} into ${p.amounts.length})`;
    case 'sending':
      return 'sending to the ledger';
    case 'landed':
      return 'landed, waiting until final';
    case 'usable':
      return 'the new notes are usable';
  }
}

/** What is wrong with note `commitment` of this wallet, by the SDK's reason. */
const NOT_FREE: Record<NoteNotFreeReason, (commitment: string) => string> = {
  unknown: (c) => `no note ${c} in this wallet`,
  spent: (c) => `note ${c} is already spent`,
  order: (c) => `note ${c} backs a live order`,
  locked: (c) => `note ${c} is locked on the ledger while a match settles`,
  reserved: (c) => `note ${c} is in use by an order, split or withdrawal in flight`,
  pending: (c) => `note ${c} has not landed on the ledger yet`,
};

/**
 * The error for note `commitment` of this wallet that cannot be used now: the SDK's fix, with the
 * command (the order's own cancel when the wallet knows which order it backs).
 */
export function noteNotFree(wallet: Wallet, commitment: string, reason: NoteNotFreeReason): CliError {
  const backing = reason === 'order' ? wallet.orderBacking(commitment) : undefined;
  const what = backing
    ? `note ${commitment} backs order ${backing.orderId} (${backing.status})`
    : NOT_FREE[reason](commitment);
  const command = backing
    ? `\`nightjar order cancel --id ${backing.orderId}\``
    : NOTE_NOT_FREE_COMMANDS[reason];
  return new CliError(
    `${what}: ${withCommand(NOTE_NOT_FREE_FIXES[reason], command)}`,
    EXIT.wallet,
    'NOTE_NOT_FREE',
  );
}

/** Throws unless every note named is a free note of this wallet (all of one mint); returns that mint. */
export function checkNotes(wallet: Wallet, commitments: readonly string[]): string {
  const mints = new Set<string>();
  for (const c of commitments) {
    const mint = wallet.notes.get(c)?.mint;
    const reason = mint === undefined ? 'unknown' : wallet.notFreeReason(c, mint);
    if (reason) throw noteNotFree(wallet, c, reason);
    mints.add(mint!);
  }
  if (mints.size !== 1) throw new UsageError('the notes named must all be of one asset');
  return [...mints][0]!;
}

/** The asset of `--asset`, or of the notes named (`mint`); both must agree. */
export async function assetOf(client: Client, assetName: string | undefined, mint?: string): Promise<Asset> {
  if (assetName === undefined) {
    const found = (await listAssets(client)).find((a) => a.mint === mint);
    return found ?? resolveAsset(client, mint ?? '');
  }
  const asset = await resolveAsset(client, assetName);
  if (mint !== undefined && mint !== asset.mint)
    throw new UsageError(
      `the note named is not a ${asset.name} note: drop --asset, or name a ${asset.name} note`,
    );
  return asset;
}

/** No free note (or no 4 notes merged) holds `required`: how much is free, and what would do. */
export function notEnough(wallet: Wallet, asset: Asset, required: bigint): CliError {
  const free = wallet.freeNotes(asset.mint);
  const total = free.reduce((s, n) => s + n.amount, 0n);
  const largest = free.reduce((m, n) => (n.amount > m ? n.amount : m), 0n);
  const have =
    free.length === 0
      ? `no free ${asset.name} notes`
      : `free: ${units(total, asset)} in ${free.length} note${free.length === 1 ? '' : 's'}, the largest ${units(largest, asset)}`;
  const short = required - total;
  // Enough in total: merges (up to 4 notes each) make a note that holds it; else only a deposit helps.
  const deposit = `\`nightjar wallet deposit --asset ${asset.name} --amount ${short <= 0n ? 'X' : formatUnits(short, asset.decimals)}\``;
  const command =
    short <= 0n
      ? `\`nightjar wallet merge --asset ${asset.name}\`, or ${deposit}`
      : `${units(short, asset)} short: ${deposit}`;
  const fix = nightjarErrorFix(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
    mint: asset.mint,
    required,
    available: largest,
  });
  return new CliError(
    `no free ${asset.name} note holds ${units(required, asset)} (${have}): ${withCommand(fix, command)}`,
    EXIT.wallet,
  );
}

/**
 * The SDK's note errors in this asset's units, with the SDK's fix and the command that does it; any other error
 * as it is (classify-error maps it).
 */
export function explainNoteError(err: unknown, wallet: Wallet, asset: Asset): unknown {
  if (isNightjarError(err, NIGHTJAR_ERROR__NOTE_NOT_FREE))
    return noteNotFree(wallet, err.context.commitment, err.context.reason);
  if (isNightjarError(err, NIGHTJAR_ERROR__NOTES_PENDING)) return err;
  // The rest of the family (NOTE_HELD included), as INSUFFICIENT_NOTES once caught them.
  if (isNightjarError(err, INSUFFICIENT_NOTES_CODES)) return notEnough(wallet, asset, err.context.required);
  if (isNightjarError(err, NIGHTJAR_ERROR__NOTHING_TO_MERGE)) {
    const { count } = err.context;
    return new CliError(
      `nothing to merge (${count} free ${asset.name} note${count === 1 ? '' : 's'}): ${cliFix(err)}`,
      EXIT.wallet,
      err.codeName,
    );
  }
  if (
    isNightjarError(err, NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS) &&
    err.context.outputTotal > err.context.inputTotal
  )
    return new CliError(
      `the new notes add up to ${units(err.context.outputTotal, asset)}, more than the note holds (${units(err.context.inputTotal, asset)}): ${withCommand(err.fix, '--note; `nightjar wallet notes`')}`,
      EXIT.wallet,
      err.codeName,
    );
  return err;
}

/** Human mode: a hint per asset with 3 or more small free notes (what `wallet merge` would take). */
export function mergeHints(client: Client, assets: readonly Asset[], out: Output): void {
  for (const a of assets) {
    const n = mergeCandidates(client, { mint: a.mint }).length;
    if (n >= 3)
      out.info(
        `hint: ${n} small ${a.name} notes; merge them with \`nightjar wallet merge --asset ${a.name}\``,
      );
  }
}

/** Waits until the note is in the engine's tree, else exit 6 (timeout). */
export async function untilFinal(client: Client, commitment: string, timeoutMs: number): Promise<void> {
  if (!(await waitForInclusion(client, { commitment, intervalMs: 500, timeoutMs })))
    throw new CliError(
      `note ${commitment} not final after ${timeoutMs / 1000}s; check \`nightjar status\``,
      EXIT.timeout,
    );
}

/** Runs a note action, its SDK errors explained in the asset's units. */
export async function explained<T>(client: Client, asset: Asset, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw explainNoteError(err, client.wallet, asset);
  }
}

/**
 * Syncs the wallet, then finds the asset a note command acts on: the mint of the notes named (all
 * of one mint), else `--asset`.
 */
export async function syncedAsset(
  out: Output,
  client: Client,
  assetName: string | undefined,
  commitments: readonly string[] | undefined,
): Promise<Asset> {
  await out.progress('syncing the wallet', syncWallet(client, { refreshOrders: true }));
  const mint = commitments === undefined ? undefined : checkNotes(client.wallet, commitments);
  return assetOf(client, assetName, mint);
}

/** What a join-split is told: wait (or not) until its notes are usable, and report its stages. */
export interface JoinSplitWaits {
  waitUsable: boolean;
  waitMs: number;
  onProgress: (p: JoinSplitProgress) => void;
}

/** Runs a join-split (`wallet split|merge`) under a progress line, its errors explained. */
export function joinSplitProgress<T>(
  out: Output,
  client: Client,
  asset: Asset,
  label: string,
  noWait: boolean,
  run: (waits: JoinSplitWaits) => Promise<T>,
): Promise<T> {
  return out.progress(label, (stage: SetStage) => {
    stage(WAITING_FOR_INPUTS);
    return explained(
      client,
      asset,
      run({ waitUsable: !noWait, waitMs: FINAL_WAIT_MS, onProgress: (p) => stage(joinSplitStage(p)) }),
    );
  });
}
