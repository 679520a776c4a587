/** A join-split whose junk proof passes every cheap check (root in the window, new nullifier and commitment). */
import { NOTE_MEMO_BYTES, randomFieldElement } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import type { Instruction } from '@nightjar/protocol/ledger-client';

export function junkJoinSplit(root: string): Instruction {
  return {
    name: 'join_split',
    args: {
      inputs: [{ tree_id: 0, merkle_root: root, nullifier: fieldToHex(randomFieldElement()) }],
      outputs: [{ slot: 0, tree_id: 0, commitment: fieldToHex(randomFieldElement()) }],
      memo: '00'.repeat(NOTE_MEMO_BYTES),
      proof: 'ee'.repeat(256),
    },
  };
}
