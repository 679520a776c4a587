import { parseAddress } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { WalletNote } from '../wallet/wallet.js';
import { getInclusion } from './get-inclusion.js';

/** The private inputs VALID_INPUT and VALID_SPEND share: the note's opening and its inclusion path. */
export interface NoteWitness {
  note: { mint: Uint8Array; amount: bigint; spendingKey: bigint; noteInnerHash: bigint };
  path: { siblings: bigint[]; leafIndex: number };
  merkleRoot: bigint;
}

/** Reads `note`'s inclusion path from the engine's tree mirror and pairs it with the wallet's keys. */
export async function noteWitness(client: Client, note: WalletNote): Promise<NoteWitness> {
  const path = await getInclusion(client, { commitment: note.commitment, treeId: note.treeId });
  return {
    note: {
      mint: parseAddress(note.mint)!,
      amount: note.amount,
      spendingKey: client.wallet.keys.spendingKey,
      noteInnerHash: BigInt('0x' + note.inner),
    },
    path: { siblings: path.siblings.map((s) => BigInt('0x' + s)), leafIndex: path.leafIndex },
    merkleRoot: BigInt('0x' + path.merkleRoot),
  };
}
