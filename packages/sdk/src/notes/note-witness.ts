import { parseAddress } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { localInclusion } from './local-tree.js';
import type { WalletNote } from '../wallet/wallet.js';
import type { VenueSession } from '../core/session.js';
import { fetchInclusion } from '../core/venue-reads.js';

/** The private inputs VALID_INPUT and VALID_SPEND share: the note's opening and its inclusion path. */
export interface NoteWitness {
  note: { mint: Uint8Array; amount: bigint; spendingKey: bigint; noteInnerHash: bigint };
  path: { siblings: bigint[]; leafIndex: number };
  merkleRoot: bigint;
}

function witness(
  client: Client,
  note: WalletNote,
  path: { siblings: bigint[]; leafIndex: number },
  merkleRoot: bigint,
): NoteWitness {
  return {
    note: {
      mint: parseAddress(note.mint)!,
      amount: note.amount,
      spendingKey: client.wallet.keys.spendingKey,
      noteInnerHash: BigInt('0x' + note.inner),
    },
    path,
    merkleRoot,
  };
}

/**
 * `note`'s witness for a join-split or a withdrawal: the path is built from the wallet's local copy
 * of the ledger's leaves (against a root the ledger accepts), so the venue never learns which note
 * is being spent.
 */
export async function noteWitness(client: Client, note: WalletNote): Promise<NoteWitness> {
  const p = await localInclusion(client, note);
  return witness(client, note, { siblings: p.siblings, leafIndex: p.leafIndex }, p.merkleRoot);
}

/**
 * `note`'s witness for an order's input proof: the path comes from the tree mirror of `engine`,
 * the engine the order goes to (`GET /tree/inclusion`), whose recent roots are the ones its
 * intake accepts (another engine's mirror of the one ledger may be a slot ahead). The order names
 * its note to that engine anyway (the spec): this is the only read that names a commitment, and
 * no other engine hears it.
 */
export async function orderNoteWitness(
  client: Client,
  note: WalletNote,
  engine: VenueSession = client,
): Promise<NoteWitness> {
  const path = await fetchInclusion(engine, note.commitment, note.treeId);
  return witness(
    client,
    note,
    { siblings: path.siblings.map((s) => BigInt('0x' + s)), leafIndex: path.leafIndex },
    BigInt('0x' + path.merkleRoot),
  );
}
