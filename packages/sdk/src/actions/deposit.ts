import type { Client } from '../client.js';
import { waitForVenueTree } from '../notes/venue-wait.js';
import { parseUnits } from '../core/utils/decimal.js';
import { landTransaction } from '../core/utils/land-transaction.js';
import { signAsFunding } from '../notes/sign-ledger.js';
import { withFundingLock } from '../core/utils/send-lock.js';
import type { WalletNote } from '../wallet/wallet.js';
import { assetParameter } from '../core/assets.js';
import {
  isNightjarError,
  NIGHTJAR_ERROR__DEPOSIT_PENDING,
  NIGHTJAR_ERROR__LEDGER_REFUSED,
  NIGHTJAR_ERROR__PARAMETER,
  NIGHTJAR_ERROR__TRANSACTION_PENDING,
  NightjarError,
} from '../core/errors/index.js';

/**
 * When `deposit` resolves: `usable` (default) once the venue's tree has the note, so it can back
 * an order at once (the tree follows the finalized level: about 13 s after landing on a 400 ms-slot
 * ledger); `landed` as soon as the ledger has the deposit (the note is then `pending` for orders,
 * and `placeOrder` waits for it, bounded by its `noteWaitMs`); `sent` once the ledger took the
 * transaction (the note stays `pending` until a sync finds its leaf, if it had not landed yet).
 */
export type DepositWait = 'usable' | 'landed' | 'sent';

/** What a deposit is doing, told to `onProgress` as it happens. */
export type DepositProgress =
  | { stage: 'sending'; signature: string }
  /** On the ledger: the note is in the wallet at its leaf. */
  | { stage: 'landed'; signature: string; note: WalletNote }
  /** The venue's tree has the note: it can back orders. */
  | { stage: 'usable'; signature: string; note: WalletNote };

/** What to deposit. */
export interface DepositParameters {
  /** The asset: a symbol (`'USDC'`, any case) or a mint (Base58). Or give `mint`. */
  asset?: string;
  /** Mint, Base58 (or give `asset`). */
  mint?: string;
  /** Decimal string in human units (`'12.5'`), or a bigint of atomic units. */
  amount: string | bigint;
  /** Tree shard (default 0). */
  treeId?: number;
  /** Resolve once the note can back orders (`'usable'`, default), once it landed (`'landed'`), or once sent (`'sent'`). */
  wait?: DepositWait;
  /** With `wait: 'usable'`: the longest wait for the venue's tree, in ms (default 30,000); then `DEPOSIT_PENDING`. */
  waitMs?: number;
  onProgress?: (progress: DepositProgress) => void;
}

/** The new note and its ledger transaction. */
export interface DepositReturnType {
  note: WalletNote;
  /** The ledger transaction's signature. */
  signature: string;
  /** Deposit index the note was derived from (recoverable from the seed). */
  index: number;
  /** Whether the venue's tree has the note (always true with `wait: 'usable'`). */
  usable: boolean;
}

/**
 * Deposits `amount` of an asset from the wallet's funding account into the vault: a new note whose
 * inner hash is derived from the seed and the deposit index, so the seed alone finds it again.
 * By default it resolves once the note can back orders (the venue's tree has it: finalized on the
 * ledger, about 13 s after landing), waiting at most `waitMs` (then `DEPOSIT_PENDING`: the note
 * is in the wallet and becomes usable later); `wait: 'landed'` resolves as soon as it landed.
 * A refusal throws `LEDGER_REFUSED` (nothing was deposited); no record in 30 s
 * `TRANSACTION_PENDING` (it may still land: `syncWallet` finds it).
 *
 * @example
 * const { note } = await deposit(client, { asset: 'USDC', amount: '450.45' }); // usable for orders now
 */
export async function deposit(client: Client, params: DepositParameters): Promise<DepositReturnType> {
  const wallet = client.wallet;
  // A bigint of a mint needs no instrument (any mint the vault holds); else resolve the asset.
  const mint =
    params.asset === undefined && params.mint !== undefined && typeof params.amount === 'bigint'
      ? params.mint
      : undefined;
  const asset = mint === undefined ? await assetParameter(client, params, 'deposit') : undefined;
  const depositMint = mint ?? asset!.mint;
  const amount =
    typeof params.amount === 'bigint' ? params.amount : parseUnits(params.amount, asset!.decimals);
  if (amount <= 0n)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: 'a deposit must be positive: give an amount above 0',
    });
  const wait = params.wait ?? 'usable';
  if (wait !== 'usable' && wait !== 'landed' && wait !== 'sent')
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `deposit's wait is 'usable', 'landed' or 'sent' (got ${String(wait)})`,
    });
  const treeId = params.treeId ?? 0;
  const index = wallet.depositCount;
  const { note, openingHash } = wallet.depositNote(index, depositMint, amount, treeId);
  const stored: WalletNote = { ...note, leafIndex: undefined, state: 'free' };
  // Persist the counter first: a crash after sending must not reuse the index.
  wallet.depositCount = index + 1;
  wallet.save();
  // Under the funding key's lock from its nonce until landed: concurrent deposits take turns.
  const { signature, rec } = await withFundingLock(client, async () => {
    const tx = await signAsFunding(client, {
      name: 'deposit',
      args: {
        tree_id: treeId,
        mint: depositMint,
        amount: amount.toString(),
        note_commitment: note.commitment,
        opening_hash: openingHash,
      },
    });
    // In the wallet before sending (pending: no leaf): a deposit that lands late is not lost.
    wallet.addNote(stored);
    wallet.save();
    params.onProgress?.({ stage: 'sending', signature: tx.signature });
    try {
      return {
        signature: tx.signature,
        rec: await landTransaction(client, tx, wait === 'sent' ? { waitMs: 0 } : {}),
      };
    } catch (err) {
      if (isNightjarError(err, NIGHTJAR_ERROR__LEDGER_REFUSED)) {
        wallet.notes.delete(stored.commitment); // nothing was deposited
        wallet.save();
      }
      if (!(wait === 'sent' && isNightjarError(err, NIGHTJAR_ERROR__TRANSACTION_PENDING))) throw err;
      return { signature: tx.signature, rec: undefined };
    }
  });
  const leaf = rec?.result?.leaf;
  if (leaf) {
    stored.leafIndex = leaf.leaf_index;
    wallet.leaves.set(note.commitment, { treeId: leaf.tree_id, leafIndex: leaf.leaf_index });
    wallet.save();
  }
  if (wait === 'sent') return { note: stored, signature, index, usable: false };
  params.onProgress?.({ stage: 'landed', signature, note: stored });
  if (wait === 'landed') return { note: stored, signature, index, usable: false };

  const ready = await waitForVenueTree(client, [stored], { waitMs: params.waitMs ?? 30_000 });
  if (!ready.usable)
    throw new NightjarError(NIGHTJAR_ERROR__DEPOSIT_PENDING, {
      signature,
      commitment: stored.commitment,
      waitedMs: ready.waitedMs,
    });
  params.onProgress?.({ stage: 'usable', signature, note: stored });
  return { note: stored, signature, index, usable: true };
}

/** What `deposit` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type DepositErrorType = NightjarError;
