pragma circom 2.0.0;

// VALID_INPUT (DESIGN.md section 3).
// Public inputs, in this order: [merkle_root, note_commitment, nullifier, mint_lo, mint_hi].
// Circom orders public inputs by declaration order, so the declarations below
// must stay in exactly this order.

include "./note.circom";

template ValidInput(levels) {
    // public
    signal input merkle_root;
    signal input note_commitment;
    signal input nullifier;
    signal input mint_lo;
    signal input mint_hi;
    // private
    signal input amount;
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

    note.note_commitment === note_commitment;
    note.nullifier === nullifier;
}

component main {public [merkle_root, note_commitment, nullifier, mint_lo, mint_hi]} = ValidInput(20);
