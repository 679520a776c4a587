/**
 * Withdrawals (issue 30): one `withdraw` transaction pays any amount of one note to the address the
 * caller names, with a VALID_SPEND v2 proof that binds the recipient and puts the rest of the note
 * in a change note of this wallet. It is signed by a fresh one-time key, never the funding key, so
 * nothing on chain names the address that made the deposits; and it needs no split before it.
 */
import { bytesToHex, fieldToHex, parseAddress } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { takeFreeNotes } from '../notes/take-notes.js';
import { parseUnits } from '../core/utils/decimal.js';
import { landTransaction } from '../core/utils/land-transaction.js';
import { signAsOneTimeKey } from '../notes/sign-ledger.js';
import { fundingAddresses } from '../wallet/funding-addresses.js';
import type { WalletNote } from '../wallet/wallet.js';
import { assetParameter, learnAsset } from '../core/assets.js';
import { proveSpend } from '../notes/spend-proof.js';
import { largestAmount } from '../notes/choose-note.js';
import {
  isNightjarError,
  NIGHTJAR_ERROR__INSUFFICIENT_NOTES,
  NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS,
  NIGHTJAR_ERROR__PARAMETER,
  NIGHTJAR_ERROR__TRANSACTION_PENDING,
  NightjarError,
} from '../core/errors/index.js';

/** Which note to withdraw, how much of it, and where to. */
export interface WithdrawParameters {
  /**
   * Ledger address (Base58) paid out: always the caller's choice (there is no default). A fresh
   * address links nothing; one that funded this wallet's deposits needs `linkFundingAddress`.
   */
  recipient: string;
  /**
   * Withdraw to an address that funded this wallet's deposits anyway (default false: refused with
   * `LINKS_FUNDING_ADDRESS`, since on chain it ties the withdrawal to those deposits).
   */
  linkFundingAddress?: boolean;
  /** The note to withdraw from (commitment); or give `asset` (or `mint`) and `amount`. */
  commitment?: string;
  /** The asset: a symbol (`'USDC'`, any case) or a mint (Base58). */
  asset?: string;
  /** Mint, Base58 (or give `asset`). */
  mint?: string;
  /**
   * The amount to pay out, a decimal string in human units or a bigint of atomic units. Any amount
   * one free note covers: the smallest such note is spent and the rest comes back as a change note
   * in the same transaction. With `commitment` and no amount, the whole note.
   */
  amount?: bigint | string;
  /**
   * The longest wait for the withdrawal to land, in ms (default 30,000). One not landed by then
   * leaves its note `spending` until a sync hears the ledger's word (and finds the change).
   */
  waitMs?: number;
}

/** The spent note, the withdrawal transaction and the change it left, if any. */
export interface WithdrawReturnType {
  note: WalletNote;
  /** Atomic units paid to `recipient`. */
  amount: bigint;
  signature: string;
  recipient: string;
  /** The one-time key that signed (a fresh address, never the funding key's). */
  signer: string;
  /** The change note (stored in the wallet once landed); absent when the whole note was paid. */
  change?: WalletNote;
}

/** Refuses a recipient that funded this wallet's deposits unless the caller accepted the link. */
function checkRecipient(client: Client, params: WithdrawParameters): Uint8Array {
  if (typeof params.recipient !== 'string' || params.recipient === '')
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: 'withdraw needs a recipient: the ledger address (Base58) to pay',
    });
  const bytes = parseAddress(params.recipient);
  if (!bytes)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, { detail: 'recipient must be a Base58 address' });
  if (fundingAddresses(client.wallet).includes(params.recipient) && params.linkFundingAddress !== true)
    throw new NightjarError(NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS, { recipient: params.recipient });
  return bytes;
}

/** The note to spend, reserved, and the amount to pay out of it. */
async function noteToWithdraw(
  client: Client,
  params: WithdrawParameters,
): Promise<{ note: WalletNote; amount: bigint }> {
  const wallet = client.wallet;
  if (params.commitment) {
    const mint = wallet.notes.get(params.commitment)?.mint ?? params.mint ?? '';
    const amount = params.amount === undefined ? undefined : await amountOf(client, params, mint);
    const note = takeFreeNotes(client, mint, [params.commitment])[0]!;
    if (amount !== undefined && amount > note.amount) {
      wallet.reserved.delete(note.commitment);
      throw new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
        mint,
        required: amount,
        available: note.amount,
      });
    }
    return { note, amount: amount ?? note.amount };
  }
  if ((!params.mint && !params.asset) || params.amount === undefined)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail:
        "withdraw needs a note's commitment, or an asset and an amount: e.g. { asset: 'USDC', amount: '12.5', recipient }",
    });
  const bigintOfMint = params.asset === undefined && typeof params.amount === 'bigint';
  const asset = bigintOfMint ? undefined : await assetParameter(client, params, 'withdraw');
  const mint = asset?.mint ?? params.mint!;
  await learnAsset(client, mint);
  const amount = await amountOf(client, params, mint, asset?.decimals);
  // The smallest note that covers it: the least value left in a change note.
  const covering = wallet
    .freeNotes(mint)
    .filter((n) => n.amount >= amount && n.leafIndex !== undefined)
    .sort((a, b) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0));
  const note = covering[0];
  if (!note)
    throw new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
      mint,
      required: amount,
      available: largestAmount(wallet.freeNotes(mint)),
    });
  return { note: takeFreeNotes(client, mint, [note.commitment])[0]!, amount };
}

async function amountOf(
  client: Client,
  params: WithdrawParameters,
  mint: string,
  decimals?: number,
): Promise<bigint> {
  let amount: bigint;
  if (typeof params.amount === 'bigint') amount = params.amount;
  else {
    const d = decimals ?? (await assetParameter(client, { mint }, 'withdraw')).decimals;
    amount = parseUnits(params.amount!, d, 'amount');
  }
  if (amount <= 0n)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: 'a withdrawal must be positive: give an amount above 0',
    });
  return amount;
}

/**
 * What `withdraw` throws: `LINKS_FUNDING_ADDRESS`, `INSUFFICIENT_NOTES`, `PARAMETER`,
 * `PROOF`, or a ledger refusal (`LEDGER_REFUSED`).
 */
export type WithdrawErrorType = NightjarError;

/**
 * Withdraws `amount` of one note (or a whole note) to `recipient` in one transaction: a VALID_SPEND
 * v2 proof binds the recipient and the change (DESIGN 3), the change's note memo is sealed to this
 * wallet's viewing key (so a wallet rebuilt from its seed finds it), and a fresh one-time key signs.
 * The recipient is always explicit; an address that funded this wallet's deposits is refused
 * unless `linkFundingAddress: true`.
 *
 * @example
 * await withdraw(client, { asset: 'USDC', amount: '12.5', recipient: freshAddress });
 * await withdraw(client, { commitment: note.commitment, recipient: freshAddress }); // the whole note
 */
export async function withdraw(client: Client, params: WithdrawParameters): Promise<WithdrawReturnType> {
  const wallet = client.wallet;
  const recipientBytes = checkRecipient(client, params);
  const recipient = params.recipient;
  const { note, amount } = await noteToWithdraw(client, params);
  try {
    const { witness, memo, proved, change } = await proveSpend(client, note, amount, recipientBytes);
    const memoHex = memo ? bytesToHex(memo) : undefined;
    const tx = await signAsOneTimeKey(client, {
      name: 'withdraw',
      args: {
        tree_id: note.treeId,
        merkle_root: fieldToHex(witness.merkleRoot),
        nullifier: note.nullifier,
        mint: note.mint,
        amount: amount.toString(),
        recipient,
        ...(change
          ? { change: { tree_id: change.treeId, commitment: change.commitment, memo: memoHex } }
          : {}),
        proof: bytesToHex(proved.proof),
      },
    });
    // Refusals are typed (LEDGER_REFUSED); one not landed yet is the ledger's word at the next
    // sync, which also finds the change through its memo.
    const rec = await landTransaction(client, tx, { waitMs: params.waitMs ?? 30_000 }).catch(
      (err: unknown) => {
        if (!isNightjarError(err, NIGHTJAR_ERROR__TRANSACTION_PENDING)) throw err;
        return undefined;
      },
    );
    let stored: WalletNote | undefined;
    const leaf = rec?.result?.leaf;
    if (change && leaf) {
      wallet.leaves.set(change.commitment, { treeId: leaf.tree_id, leafIndex: leaf.leaf_index });
      stored = { ...change, treeId: leaf.tree_id, leafIndex: leaf.leaf_index, state: 'free' };
      wallet.addNote(stored);
      wallet.memos.add(memoHex!); // a later sync finds it stored already
    }
    // Sent: offered to no order from now on, and spent once the ledger says so; a withdrawal that
    // never lands leaves the note to the ledger's word at the next sync (free again).
    note.state = rec ? 'spent' : 'spending';
    wallet.save();
    const result = { note, amount, signature: tx.signature, recipient, signer: tx.signer };
    return stored ? { ...result, change: stored } : result;
  } finally {
    wallet.reserved.delete(note.commitment);
  }
}
