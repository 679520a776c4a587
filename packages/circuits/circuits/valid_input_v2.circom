pragma circom 2.0.0;

// VALID_INPUT v2 (DESIGN.md section 3): the owner proves a note in the tree and binds it to exactly
// one order through the use tag. Public signals, in this order: [use_tag, merkle_root, nullifier]
// (use_tag is the one output, and circom puts outputs first; then the public inputs in
// declaration order, so the declarations below must stay in this order).
// The commitment, the mint, the amount and the order's terms stay private: intake recomputes the
// digest and the use tag from the order it receives, and the ledger records the use tag with the
// lock, so VALID_MATCH can open it without a Merkle path.

include "./settlement_v2.circom";

template ValidInputV2(levels) {
    // public
    signal input merkle_root;
    signal input nullifier;
    // private: the note
    signal input note_commitment;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input spending_key;
    signal input note_inner_hash;
    signal input path_elements[levels];
    signal input path_indices[levels];
    // private: the order's terms
    signal input order_side;
    signal input order_amount;
    signal input order_price_limit;
    signal input order_min_fill_size;
    signal input order_expiry_slot;
    signal input order_id;
    signal input market_lo;
    signal input market_hi;

    signal output use_tag;

    // The note: mint halves 128-bit, a non-zero u64 amount, owned by the spending key.
    component mintLo = U128();
    mintLo.in <== mint_lo;
    component mintHi = U128();
    mintHi.in <== mint_hi;
    component amountBits = U64();
    amountBits.in <== amount;
    component amountNonZero = NonZero();
    amountNonZero.in <== amount;

    component owner = Poseidon(2);
    owner.inputs[0] <== 1;
    owner.inputs[1] <== spending_key;

    component note = NoteInTree(levels);
    note.merkle_root <== merkle_root;
    note.mint_lo <== mint_lo;
    note.mint_hi <== mint_hi;
    note.amount <== amount;
    note.owner <== owner.out;
    note.inner <== note_inner_hash;
    for (var i = 0; i < levels; i++) {
        note.path_elements[i] <== path_elements[i];
        note.path_indices[i] <== path_indices[i];
    }
    note.commitment === note_commitment;
    note.nullifier === nullifier;

    // The order: its terms range-checked, so the digest has one meaning.
    component digest = CheckedOrderDigest();
    digest.market_lo <== market_lo;
    digest.market_hi <== market_hi;
    digest.side <== order_side;
    digest.amount <== order_amount;
    digest.price_limit <== order_price_limit;
    digest.min_fill_size <== order_min_fill_size;
    digest.expiry_slot <== order_expiry_slot;
    digest.order_id <== order_id;

    component tag = UseTag();
    tag.commitment <== note.commitment;
    tag.inner <== note_inner_hash;
    tag.digest <== digest.out;
    use_tag <== tag.out;
}

component main {public [merkle_root, nullifier]} = ValidInputV2(20);
