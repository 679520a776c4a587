pragma circom 2.0.0;

// VALID_SPEND (DESIGN.md section 3): withdraw a note to a recipient.
// Public inputs, in this order:
//   [merkle_root, nullifier, mint_lo, mint_hi, amount, recipient_hi, recipient_lo].
// Circom orders public inputs by declaration order, so the declarations below
// must stay in exactly this order.

include "./note.circom";

template ValidSpend(levels) {
    // public
    signal input merkle_root;
    signal input nullifier;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input recipient_hi;
    signal input recipient_lo;
    // private
    signal input spending_key;
    signal input note_inner_hash;
    signal input path_elements[levels];
    signal input path_indices[levels];

    component note = NoteOwnership(levels);
    note.merkle_root <== merkle_root;
    note.mint_lo <== mint_lo;
    note.mint_hi <== mint_hi;
    note.amount <== amount;
    note.spending_key <== spending_key;
    note.note_inner_hash <== note_inner_hash;
    for (var i = 0; i < levels; i++) {
        note.path_elements[i] <== path_elements[i];
        note.path_indices[i] <== path_indices[i];
    }
    note.nullifier === nullifier;

    // Bind the recipient: it must appear in a constraint so that a proof for
    // one recipient cannot be replayed for another. The recipient is a 32-byte
    // address split like a mint (hi = bytes 0..16, lo = bytes 16..32), so
    // each half is range-checked to 128 bits, and squared as well.
    component recipientHiBits = Num2Bits(128);
    recipientHiBits.in <== recipient_hi;
    component recipientLoBits = Num2Bits(128);
    recipientLoBits.in <== recipient_lo;
    signal recipient_hi_sq;
    signal recipient_lo_sq;
    recipient_hi_sq <== recipient_hi * recipient_hi;
    recipient_lo_sq <== recipient_lo * recipient_lo;
}

component main {public [merkle_root, nullifier, mint_lo, mint_hi, amount, recipient_hi, recipient_lo]} = ValidSpend(20);
