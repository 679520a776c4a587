import { signTransaction } from '@nightjar/ledger/client';
import type { Client } from '../client.js';
import { LedgerRefusedError, NightjarError } from '../errors.js';
import { parseUnits } from '../utils/decimal.js';
import type { WalletNote } from '../wallet/wallet.js';
import { mintDecimals } from './mint-decimals.js';

/** What to deposit. */
export interface DepositParameters {
  /** Mint, Base58. */
  mint: string;
  /** Decimal string in human units, or a bigint of atomic units. */
  amount: string | bigint;
  /** Tree shard (default 0). */
  treeId?: number;
}

/** The new note and its ledger transaction. */
export interface DepositReturnType {
  note: WalletNote;
  /** The ledger transaction's signature. */
  signature: string;
  /** Deposit index the note was derived from (recoverable from the seed). */
  index: number;
}

/**
 * Deposits `amount` of `mint` from the wallet's funding account into the vault: a new note whose
 * inner hash is derived from the seed and the deposit index, so the seed alone finds it again.
 * The note can back orders once the engine's tree mirror has it (finalized on the ledger).
 *
 * @example
 * const { note } = await deposit(client, { mint: USDC, amount: '450.45' });
 */
export async function deposit(client: Client, params: DepositParameters): Promise<DepositReturnType> {
  const wallet = client.wallet;
  const amount =
    typeof params.amount === 'bigint'
      ? params.amount
      : parseUnits(params.amount, await mintDecimals(client, params.mint));
  if (amount <= 0n) throw new NightjarError('a deposit must be positive');
  const treeId = params.treeId ?? 0;
  const index = wallet.depositCount;
  const { note, openingHash } = wallet.depositNote(index, params.mint, amount, treeId);
  // Persist the counter first: a crash after sending must not reuse the index.
  wallet.depositCount = index + 1;
  wallet.save();
  const funding = wallet.keys.funding;
  const last = await client.ledger.getNonce({ signer: funding.address });
  const tx = signTransaction(funding.seed, BigInt(last ?? '0') + 1n, {
    name: 'deposit',
    args: {
      tree_id: treeId,
      mint: params.mint,
      amount: amount.toString(),
      note_commitment: note.commitment,
      opening_hash: openingHash,
    },
  });
  const { signature } = await client.ledger.sendTransaction({ transaction: tx });
  const rec = await client.ledger.getTransaction({ signature });
  if (rec?.err) throw new LedgerRefusedError('deposit', rec.err.code, true, signature);
  const leaf = rec?.result?.leaf;
  const stored: WalletNote = { ...note, leafIndex: leaf?.leaf_index, state: 'free' };
  wallet.addNote(stored);
  if (leaf) wallet.leaves.set(note.commitment, { treeId: leaf.tree_id, leafIndex: leaf.leaf_index });
  wallet.save();
  return { note: stored, signature, index };
}
