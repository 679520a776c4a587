/**
 * One join-split, end to end: prove VALID_JOIN_SPLIT over the inputs' paths (built locally from the
 * ledger's leaves: the venue is never asked about the inputs),
 * seal the note memo to the wallet's own viewing key, sign with a fresh random key (nonce 1: nothing
 * links it to the funding address), send, read the landed record, record inputs spent and outputs
 * as wallet notes at their leaves, and (optionally) wait until the venue's tree has the outputs.
 * The caller holds the inputs (reserved) for the whole run; `joinSplit` is the public wrapper.
 */
import { JOIN_SPLIT_MAX_INPUTS, JOIN_SPLIT_MAX_OUTPUTS, encryptNoteMemo } from '@nightjar/crypto';
import { bytesToHex, fieldToHex, parseAddress, U64_MAX } from '@nightjar/protocol';
import { proveInTurn } from '../core/proof-turns.js';
import type { Client, JoinSplitProofResult } from '../client.js';
import { landTransaction } from '../core/utils/land-transaction.js';
import { signAsOneTimeKey } from './sign-ledger.js';
import type { WalletNote } from '../wallet/wallet.js';
import { largestAmount } from './choose-note.js';
import { noteWitness } from './note-witness.js';
import { describeAmount } from '../core/utils/asset-registry.js';
import { waitForLedgerLeaves } from './local-tree.js';
import { waitForVenueTree } from './venue-wait.js';
import {
  NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS,
  NIGHTJAR_ERROR__NOTES_PENDING,
  NIGHTJAR_ERROR__PARAMETER,
  NIGHTJAR_ERROR__PROOF,
  NIGHTJAR_ERROR__SPLIT_OUTPUTS_PENDING,
  NightjarError,
} from '../core/errors/index.js';

/** What a join-split is doing, told to `onProgress` as it happens. */
export type JoinSplitProgress =
  /** The inputs are among the ledger's leaves; the proof is being made (about a second). */
  | { stage: 'proving'; mint: string; inputs: readonly WalletNote[]; amounts: readonly bigint[] }
  /** Signed with a fresh key and sent to the ledger. */
  | { stage: 'sending'; signature: string }
  /** Landed: inputs spent, outputs stored in the wallet at their leaves. */
  | { stage: 'landed'; signature: string; notes: readonly WalletNote[] }
  /** The venue's tree has the outputs: they can back orders. */
  | { stage: 'usable'; signature: string; notes: readonly WalletNote[] };

/** The transaction, the notes it consumed and the notes it created (in slot order). */
export interface JoinSplitReturnType {
  signature: string;
  spent: WalletNote[];
  notes: WalletNote[];
}

/** One join-split to run. */
export interface RunJoinSplitRequest {
  mint: string;
  /** Free notes of `mint`, reserved by the caller (1 to 4). */
  inputs: readonly WalletNote[];
  /** New notes' amounts, slot order (1 to 8, each positive, summing to the inputs). */
  amounts: readonly bigint[];
  /** Wait until the venue's tree has the outputs (default true). */
  waitUsable?: boolean;
  /** Bound of each wait (the ledger's leaves for the inputs before, the venue's tree for the outputs after), in ms; default 20,000. */
  waitMs?: number;
  /** Leave the outputs reserved for the caller (released again if the run then fails). */
  keepOutputsReserved?: boolean;
  onProgress?: (p: JoinSplitProgress) => void;
}

/** Throws `JOIN_SPLIT_AMOUNTS` unless `amounts` are 1 to 8 positive u64 adding up to `inputTotal`. */
export function checkJoinSplitAmounts(inputTotal: bigint, amounts: readonly bigint[], mint?: string): void {
  const outputTotal = amounts.reduce((s, a) => s + a, 0n);
  const show = (v: bigint) => (mint === undefined ? String(v) : describeAmount(mint, v));
  const fail = (why: string) => {
    throw new NightjarError(NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS, { detail: why, inputTotal, outputTotal });
  };
  if (amounts.length < 1 || amounts.length > JOIN_SPLIT_MAX_OUTPUTS)
    fail(`a split or merge creates 1 to ${JOIN_SPLIT_MAX_OUTPUTS} notes (asked: ${amounts.length})`);
  if (amounts.some((a) => typeof a !== 'bigint' || a <= 0n || a > U64_MAX))
    fail('every new note must be a positive u64 amount');
  if (outputTotal !== inputTotal)
    fail(
      `the new notes add up to ${show(outputTotal)}, the notes consumed to ${show(inputTotal)}: make them equal`,
    );
}

/** The join-split's note memo and proof, and its outputs as the wallet recomputes them (checked against the prover's). */
async function proveJoinSplit(client: Client, req: RunJoinSplitRequest, mintBytes: Uint8Array) {
  const wallet = client.wallet;
  const { mint, inputs, amounts } = req;
  const witnesses = await Promise.all(inputs.map((n) => noteWitness(client, n)));
  const parent = witnesses[0]!.note.noteInnerHash;
  const padded = [...amounts, ...Array<bigint>(JOIN_SPLIT_MAX_OUTPUTS - amounts.length).fill(0n)];
  const memo = encryptNoteMemo(wallet.keys.viewingPublicKey, {
    mint: mintBytes,
    parentInner: parent,
    amounts: padded,
  });

  // Outputs go to input 0's shard; the wallet recomputes each from its keys (as recovery will).
  const treeId = inputs[0]!.treeId;
  req.onProgress?.({ stage: 'proving', mint, inputs, amounts });
  let proved: JoinSplitProofResult;
  try {
    const prover = client.prover();
    proved = await proveInTurn(prover, () =>
      prover.proveValidJoinSplit({
        spendingKey: wallet.keys.spendingKey,
        mint: mintBytes,
        inputs: witnesses.map((w) => ({
          amount: w.note.amount,
          noteInnerHash: w.note.noteInnerHash,
          path: w.path,
          merkleRoot: w.merkleRoot,
        })),
        outputAmounts: amounts,
        outputTreeIds: amounts.map(() => treeId),
        memo,
      }),
    );
  } catch (err) {
    throw new NightjarError(
      NIGHTJAR_ERROR__PROOF,
      { detail: `VALID_JOIN_SPLIT proof failed: ${(err as Error).message}` },
      { cause: err },
    );
  }
  const outputs = proved.outputs.map((o) => wallet.noteFor(mint, o.amount, o.inner, treeId, 'join_split'));
  if (outputs.some((n, i) => n.commitment !== fieldToHex(proved.outputs[i]!.commitment)))
    throw new NightjarError(NIGHTJAR_ERROR__PROOF, {
      detail: 'the prover’s output notes differ from the wallet’s',
    });
  return { memo, proved, outputs, treeId };
}

/** Stores the landed outputs at their leaves (free), the inputs as spent. */
function storeOutputs(
  client: Client,
  req: RunJoinSplitRequest,
  outputs: readonly WalletNote[],
  leaves: readonly { tree_id: number; leaf_index: number }[],
  treeId: number,
): WalletNote[] {
  const wallet = client.wallet;
  // Landed without error: the ledger consumed the inputs and appended the outputs.
  const notes = outputs.map((n, i): WalletNote => {
    const leaf = leaves[i];
    if (leaf) wallet.leaves.set(n.commitment, { treeId: leaf.tree_id, leafIndex: leaf.leaf_index });
    return { ...n, treeId: leaf?.tree_id ?? treeId, leafIndex: leaf?.leaf_index, state: 'free' };
  });
  for (const n of req.inputs) n.state = 'spent';
  for (const n of notes) {
    if (req.keepOutputsReserved) wallet.reserved.add(n.commitment);
    wallet.addNote(n);
  }
  return notes;
}

/** Runs one join-split (see the module comment). */
export async function runJoinSplit(client: Client, req: RunJoinSplitRequest): Promise<JoinSplitReturnType> {
  const wallet = client.wallet;
  const { mint, inputs, amounts } = req;
  const mintBytes = parseAddress(mint);
  if (!mintBytes)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, { detail: 'mint must be a Base58 address' });
  if (inputs.length < 1 || inputs.length > JOIN_SPLIT_MAX_INPUTS)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `a split or merge consumes 1 to ${JOIN_SPLIT_MAX_INPUTS} notes`,
    });
  const inputTotal = inputs.reduce((s, n) => s + n.amount, 0n);
  checkJoinSplitAmounts(inputTotal, amounts, mint);

  // Paths are built locally from the ledger's leaves: wait until the ledger has every input.
  const ready = await waitForLedgerLeaves(client, inputs, { waitMs: req.waitMs });
  if (!ready.usable)
    throw new NightjarError(NIGHTJAR_ERROR__NOTES_PENDING, {
      mint,
      required: inputTotal,
      available: largestAmount(inputs.filter(ready.has)),
      waitedMs: ready.waitedMs,
    });
  const { memo, proved, outputs, treeId } = await proveJoinSplit(client, req, mintBytes);

  const memoHex = bytesToHex(memo);
  const tx = await signAsOneTimeKey(client, {
    name: 'join_split',
    args: {
      inputs: inputs.map((n, i) => ({
        tree_id: n.treeId,
        merkle_root: fieldToHex(proved.inputs[i]!.merkleRoot),
        nullifier: n.nullifier,
      })),
      outputs: proved.outputs.map((o, i) => ({
        slot: o.slot,
        tree_id: treeId,
        commitment: outputs[i]!.commitment,
      })),
      memo: memoHex,
      proof: bytesToHex(proved.proof),
    },
  });
  req.onProgress?.({ stage: 'sending', signature: tx.signature });
  const rec = await landTransaction(client, tx);

  const notes = storeOutputs(client, req, outputs, rec.result?.leaves ?? [], treeId);
  wallet.memos.add(memoHex); // a later sync finds it stored already
  wallet.save();
  const result = { signature: tx.signature, spent: [...inputs], notes };
  req.onProgress?.({ stage: 'landed', signature: tx.signature, notes });

  if (req.waitUsable ?? true) {
    const usable = await waitForVenueTree(client, notes, { waitMs: req.waitMs });
    if (!usable.usable) {
      if (req.keepOutputsReserved) for (const n of notes) wallet.reserved.delete(n.commitment);
      throw new NightjarError(NIGHTJAR_ERROR__SPLIT_OUTPUTS_PENDING, {
        signature: tx.signature,
        commitments: notes.map((n) => n.commitment),
        waitedMs: usable.waitedMs,
      });
    }
    req.onProgress?.({ stage: 'usable', signature: tx.signature, notes });
  }
  return result;
}
