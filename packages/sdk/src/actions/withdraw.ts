import { signTransaction } from '@nightjar/ledger';
import { bytesToHex, fieldToHex, parseAddress } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { InsufficientNotesError, NightjarError, ParameterError, ProofError } from '../errors.js';
import type { WalletNote } from '../wallet/wallet.js';
import { noteWitness } from './note-witness.js';
import { largestAmount } from './select-note.js';

/** Which note to withdraw, and where to. */
export interface WithdrawParameters {
  /** The note to withdraw (commitment); or give `mint` and `amount` to pick a note of exactly that value. */
  commitment?: string;
  mint?: string;
  amount?: bigint;
  /** Ledger address (Base58) paid out; default the wallet's funding account. */
  recipient?: string;
}

/** The spent note and the withdrawal transaction. */
export interface WithdrawReturnType {
  note: WalletNote;
  signature: string;
  recipient: string;
}

/**
 * Withdraws a whole note to a ledger address with a VALID_SPEND proof that binds the recipient
 * (DESIGN 3), signed by the wallet's funding key.
 *
 * @example
 * await withdraw(client, { commitment: note.commitment });
 */
export async function withdraw(client: Client, params: WithdrawParameters): Promise<WithdrawReturnType> {
  const wallet = client.wallet;
  let note: WalletNote | undefined;
  if (params.commitment) note = wallet.notes.get(params.commitment);
  else if (params.mint && params.amount !== undefined)
    note = wallet.freeNotes(params.mint).find((n) => n.amount === params.amount);
  else throw new ParameterError('withdraw needs a commitment, or a mint and an amount');
  if (!note || !wallet.freeNotes(note.mint).includes(note)) {
    const mint = params.mint ?? note?.mint ?? '';
    throw new InsufficientNotesError(
      mint,
      params.amount ?? note?.amount ?? 0n,
      largestAmount(wallet.freeNotes(mint)),
    );
  }
  const recipient = params.recipient ?? wallet.keys.funding.address;
  const recipientBytes = parseAddress(recipient);
  if (!recipientBytes) throw new ParameterError('recipient must be a Base58 address');
  const witness = await noteWitness(client, note);
  let proof: Uint8Array;
  try {
    proof = (await client.prover().proveValidSpend({ ...witness, recipient: recipientBytes })).proof;
  } catch (err) {
    throw new ProofError(`VALID_SPEND proof failed: ${(err as Error).message}`, { cause: err });
  }
  const funding = wallet.keys.funding;
  const last = await client.ledger.getNonce({ signer: funding.address });
  const tx = signTransaction(funding.seed, BigInt(last ?? '0') + 1n, {
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
  const { signature } = await client.ledger.sendTransaction({ transaction: tx });
  const rec = await client.ledger.getTransaction({ signature });
  if (rec?.err) throw new NightjarError(`withdrawal refused by the ledger: ${rec.err.code}`);
  // Sent: offered to no order from now on, and spent once the ledger says so; a withdrawal that
  // never lands leaves the note to the ledger's word at the next sync (free again).
  const status = await client.ledger.getNoteStatus({ nullifier: note.nullifier });
  note.state = status.state === 'spent' ? 'spent' : 'spending';
  wallet.save();
  return { note, signature, recipient };
}
