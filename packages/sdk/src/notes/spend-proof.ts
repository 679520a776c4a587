/** A VALID_SPEND v2 proof for a withdrawal, with the change note and its memo made before it (the proof binds them). */
import { encryptNoteMemo, JOIN_SPLIT_MAX_OUTPUTS } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import { proveInTurn } from '../core/proof-turns.js';
import type { Client } from '../client.js';
import type { SpendV2ProofResult } from '../core/prover.js';
import type { WalletNote } from '../wallet/wallet.js';
import { noteWitness, type NoteWitness } from './note-witness.js';
import { NIGHTJAR_ERROR__PROOF, NightjarError } from '../core/errors/index.js';

/** What `proveSpend` made: the witness, the change's memo and note (none when the whole note is paid), the proof. */
export interface ProvedSpend {
  witness: NoteWitness;
  memo: Uint8Array | undefined;
  proved: SpendV2ProofResult;
  change: WalletNote | undefined;
}

/** Proves paying `amount` of `note` to `recipient`, the rest to a change note of this wallet. */
export async function proveSpend(
  client: Client,
  note: WalletNote,
  amount: bigint,
  recipient: Uint8Array,
): Promise<ProvedSpend> {
  const wallet = client.wallet;
  const witness = await noteWitness(client, note);
  // The change (if any) goes to the note's shard with its memo sealed to this wallet's viewing
  // key, both made before the proof, which binds them (change_memo_hash): a relay that re-signs
  // the withdrawal cannot swap the memo or the shard for ones this wallet's seed never finds.
  const changeAmount = note.amount - amount;
  const memo =
    changeAmount === 0n
      ? undefined
      : encryptNoteMemo(wallet.keys.viewingPublicKey, {
          mint: witness.note.mint,
          parentInner: witness.note.noteInnerHash,
          amounts: [changeAmount, ...Array<bigint>(JOIN_SPLIT_MAX_OUTPUTS - 1).fill(0n)],
        });
  let proved: SpendV2ProofResult;
  try {
    const prover = client.prover();
    proved = await proveInTurn(prover, () =>
      prover.proveValidSpendV2({
        mint: witness.note.mint,
        noteAmount: note.amount,
        spendingKey: witness.note.spendingKey,
        noteInnerHash: witness.note.noteInnerHash,
        path: witness.path,
        merkleRoot: witness.merkleRoot,
        amount,
        recipient,
        ...(memo ? { change: { treeId: note.treeId, memo } } : {}),
      }),
    );
  } catch (err) {
    throw new NightjarError(
      NIGHTJAR_ERROR__PROOF,
      { detail: `VALID_SPEND proof failed: ${(err as Error).message}` },
      { cause: err },
    );
  }
  // The wallet recomputes the change from its keys (as recovery will).
  const change =
    changeAmount === 0n
      ? undefined
      : wallet.noteFor(note.mint, changeAmount, proved.change.inner, note.treeId, 'withdrawal_change');
  if (change && change.commitment !== fieldToHex(proved.change.commitment))
    throw new NightjarError(NIGHTJAR_ERROR__PROOF, {
      detail: 'the prover’s change note differs from the wallet’s',
    });
  return { witness, memo, proved, change };
}
