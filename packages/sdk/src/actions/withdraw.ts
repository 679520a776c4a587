import { bytesToHex, fieldToHex, parseAddress } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { InsufficientNotesError, ParameterError, ProofError, TransactionPendingError } from '../errors.js';
import { fundNotes } from '../notes/fund.js';
import type { JoinSplitProgress, JoinSplitReturnType } from '../notes/run-join-split.js';
import { takeFreeNotes } from '../notes/take-notes.js';
import { parseUnits } from '../utils/decimal.js';
import { landTransaction } from '../utils/land-transaction.js';
import { signAsFunding } from '../utils/sign-ledger.js';
import { withFundingLock } from '../utils/send-lock.js';
import type { WalletNote } from '../wallet/wallet.js';
import { assetParameter, learnAsset } from './assets.js';
import { noteWitness } from './note-witness.js';
import { largestAmount } from './select-note.js';

/** Which note to withdraw, and where to. */
export interface WithdrawParameters {
  /** The note to withdraw whole (commitment); or give `asset` (or `mint`) and `amount`. */
  commitment?: string;
  /** The asset: a symbol (`'USDC'`, any case) or a mint (Base58). */
  asset?: string;
  /** Mint, Base58 (or give `asset`). */
  mint?: string;
  /**
   * With `mint`: the amount to pay out, a decimal string in human units or a bigint of atomic
   * units. A free note of exactly that value is withdrawn; else one is split off a larger note (or
   * off up to 4 notes merged) first, and the rest stays a free note.
   */
  amount?: bigint | string;
  /** Ledger address (Base58) paid out; default the wallet's funding account. */
  recipient?: string;
  /** With `mint` and `amount`: split or merge first when no free note holds exactly the amount (default true). */
  split?: boolean;
  /** Told each stage of that split. */
  onProgress?: (progress: JoinSplitProgress) => void;
  /**
   * The longest wait for the withdrawal to land, in ms (default 30,000). One not landed by then
   * leaves its note `spending` until a sync hears the ledger's word.
   */
  waitMs?: number;
}

/** The spent note and the withdrawal transaction. */
export interface WithdrawReturnType {
  note: WalletNote;
  signature: string;
  recipient: string;
  /** The split or merge that made the note first, when one was needed. */
  split?: JoinSplitReturnType;
}

/** The note to withdraw, reserved, and the split that made it if any. */
async function noteToWithdraw(
  client: Client,
  params: WithdrawParameters,
): Promise<{ note: WalletNote; split?: JoinSplitReturnType }> {
  const wallet = client.wallet;
  if (params.commitment) {
    const mint = wallet.notes.get(params.commitment)?.mint ?? params.mint ?? '';
    return { note: takeFreeNotes(client, mint, [params.commitment])[0]! };
  }
  if ((!params.mint && !params.asset) || params.amount === undefined)
    throw new ParameterError(
      "withdraw needs a note's commitment, or an asset and an amount: e.g. { asset: 'USDC', amount: '12.5' }",
    );
  const bigintOfMint = params.asset === undefined && typeof params.amount === 'bigint';
  const asset = bigintOfMint ? undefined : await assetParameter(client, params, 'withdraw');
  const mint = asset?.mint ?? params.mint!;
  await learnAsset(client, mint);
  const amount =
    typeof params.amount === 'bigint' ? params.amount : parseUnits(params.amount, asset!.decimals, 'amount');
  if (amount <= 0n) throw new ParameterError('a withdrawal must be positive: give an amount above 0');
  const exact = wallet.freeNotes(mint).find((n) => n.amount === amount);
  if (exact) return { note: takeFreeNotes(client, mint, [exact.commitment])[0]! };
  if (params.split === false)
    throw new InsufficientNotesError(
      mint,
      amount,
      largestAmount(wallet.freeNotes(mint)),
      'no free note holds exactly that amount: split one first (splitNote), or leave `split` on',
    );
  const { funded, splits } = await fundNotes(client, {
    mint,
    amounts: [amount],
    allowLarger: false,
    ...(params.onProgress ? { onProgress: params.onProgress } : {}),
  });
  const f = funded[0]!;
  if (f.status === 'failure') throw f.error;
  return splits[0] ? { note: f.note, split: splits[0] } : { note: f.note };
}

/**
 * Withdraws a note to a ledger address with a VALID_SPEND proof that binds the recipient
 * (DESIGN 3), signed by the wallet's funding key. Any amount: `{ mint, amount }` withdraws a free
 * note of exactly that value, splitting one off a larger note (or merged notes) first when there is
 * none, in one call; the remainder stays a free note.
 *
 * @example
 * await withdraw(client, { commitment: note.commitment });
 * await withdraw(client, { asset: 'USDC', amount: '12.5' }); // splits when no note is worth exactly 12.5
 */
export async function withdraw(client: Client, params: WithdrawParameters): Promise<WithdrawReturnType> {
  const wallet = client.wallet;
  const recipient = params.recipient ?? wallet.keys.funding.address;
  const recipientBytes = parseAddress(recipient);
  if (!recipientBytes) throw new ParameterError('recipient must be a Base58 address');
  const { note, split } = await noteToWithdraw(client, params);
  try {
    const witness = await noteWitness(client, note);
    let proof: Uint8Array;
    try {
      proof = (await client.prover().proveValidSpend({ ...witness, recipient: recipientBytes })).proof;
    } catch (err) {
      throw new ProofError(`VALID_SPEND proof failed: ${(err as Error).message}`, { cause: err });
    }
    // Under the funding key's lock from its nonce until landed: concurrent withdrawals (and
    // deposits) take turns instead of signing the same nonce.
    const signature = await withFundingLock(client, async () => {
      const tx = await signAsFunding(client, {
        name: 'withdraw',
        args: {
          tree_id: note.treeId,
          merkle_root: fieldToHex(witness.merkleRoot),
          nullifier: note.nullifier,
          mint: note.mint,
          amount: note.amount.toString(),
          recipient,
          proof: bytesToHex(proof),
        },
      });
      // Refusals are typed (LedgerRefusedError); one not landed yet is the ledger's word at the next sync.
      await landTransaction(client, tx, { waitMs: params.waitMs ?? 30_000 }).catch((err: unknown) => {
        if (!(err instanceof TransactionPendingError)) throw err;
      });
      return tx.signature;
    });
    // Sent: offered to no order from now on, and spent once the ledger says so; a withdrawal that
    // never lands leaves the note to the ledger's word at the next sync (free again).
    const status = await client.ledger.getNoteStatus({ nullifier: note.nullifier });
    note.state = status.state === 'spent' ? 'spent' : 'spending';
    wallet.save();
    return split ? { note, signature, recipient, split } : { note, signature, recipient };
  } finally {
    wallet.reserved.delete(note.commitment);
  }
}
