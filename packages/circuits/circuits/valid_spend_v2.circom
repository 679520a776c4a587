pragma circom 2.0.0;

// VALID_SPEND v2 (DESIGN.md section 3): withdraw `amount` of a note, the rest to a change note.
// Public inputs, in this order (declaration order):
//   [merkle_root, nullifier, mint_lo, mint_hi, amount, recipient_hi, recipient_lo, change_commitment,
//    change_memo_hash]
// The note's own value stays private: only the amount paid out is public. The change note has the
// same mint and owner, inner Poseidon(9, note_inner_hash), and holds note value - amount;
// change_commitment is 0 exactly when nothing is left (and then the ledger appends nothing).
// change_memo_hash (spendChangeMemoHash, @nightjar/crypto) binds the change's shard and memo, so a
// copy of the proof cannot append the change elsewhere or with another memo; the ledger computes it
// from the transaction, 0 when it carries no change.

include "./settlement_v2.circom";

template ValidSpendV2(levels) {
    // public
    signal input merkle_root;
    signal input nullifier;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input recipient_hi;
    signal input recipient_lo;
    signal input change_commitment;
    signal input change_memo_hash;
    // private
    signal input note_amount;
    signal input spending_key;
    signal input note_inner_hash;
    signal input path_elements[levels];
    signal input path_indices[levels];

    component mintLo = U128();
    mintLo.in <== mint_lo;
    component mintHi = U128();
    mintHi.in <== mint_hi;
    component noteAmount = U64();
    noteAmount.in <== note_amount;

    component owner = Poseidon(2);
    owner.inputs[0] <== 1;
    owner.inputs[1] <== spending_key;

    component note = NoteInTree(levels);
    note.merkle_root <== merkle_root;
    note.mint_lo <== mint_lo;
    note.mint_hi <== mint_hi;
    note.amount <== note_amount;
    note.owner <== owner.out;
    note.inner <== note_inner_hash;
    for (var i = 0; i < levels; i++) {
        note.path_elements[i] <== path_elements[i];
        note.path_indices[i] <== path_indices[i];
    }
    note.nullifier === nullifier;

    // amount is a non-zero u64 (so a zero note cannot be withdrawn, nor a note of zero spent for
    // its change alone), and the change, note_amount - amount, a u64: amount <= the note's value.
    component amountBits = U64();
    amountBits.in <== amount;
    component amountNonZero = NonZero();
    amountNonZero.in <== amount;
    signal change;
    change <== note_amount - amount;
    component changeBits = U64();
    changeBits.in <== change;

    component changeInner = Poseidon(2);
    changeInner.inputs[0] <== 9;
    changeInner.inputs[1] <== note_inner_hash;
    component changeNote = NoteCommitment();
    changeNote.mint_lo <== mint_lo;
    changeNote.mint_hi <== mint_hi;
    changeNote.amount <== change;
    changeNote.owner <== owner.out;
    changeNote.inner <== changeInner.out;
    // The change commitment, or 0 when nothing is left: forced both ways, so value left in the
    // note can never be dropped and an empty change is never appended.
    component empty = IsZero();
    empty.in <== change;
    change_commitment === (1 - empty.out) * changeNote.out;

    // Bind the recipient (a 32-byte address split like a mint): each half 128-bit, and squared.
    component recipientHi = U128();
    recipientHi.in <== recipient_hi;
    component recipientLo = U128();
    recipientLo.in <== recipient_lo;
    signal recipient_hi_sq;
    signal recipient_lo_sq;
    recipient_hi_sq <== recipient_hi * recipient_hi;
    recipient_lo_sq <== recipient_lo * recipient_lo;

    // Bind the change's shard and memo (spendChangeMemoHash): it must appear in a constraint.
    signal change_memo_hash_sq;
    change_memo_hash_sq <== change_memo_hash * change_memo_hash;
}

component main {public [
    merkle_root, nullifier, mint_lo, mint_hi, amount, recipient_hi, recipient_lo, change_commitment,
    change_memo_hash
]} = ValidSpendV2(20);
