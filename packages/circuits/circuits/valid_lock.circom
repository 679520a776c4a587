pragma circom 2.0.0;

// VALID_LOCK (DESIGN.md sections 3 and 6): the engine locks a partially filled order's change
// note for the order's remainder. Public signals, in this order: [use_tag, merkle_root, nullifier]
// (as VALID_INPUT v2, so the ledger checks both alike).
//
// The prover knows the note's opening but not its spending key (owner_commitment is private), and
// only a settlement's change note qualifies: its inner must be Poseidon(4, parent_inner, 2,
// remainder digest), and the use tag binds that same digest. A deposit's inner (domain 3), a
// trade-out's or fee's (Poseidon(4, ., role), three inputs) or a join-split's (domain 7) has no
// such preimage, so the engine cannot lock a note it never created as change, nor change the
// remainder's terms (VALID_MATCH fixed them when it created the note).

include "./settlement_v2.circom";

template ValidLock(levels) {
    // public
    signal input merkle_root;
    signal input nullifier;
    // private: the change note
    signal input note_commitment;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input owner_commitment;
    signal input parent_inner;
    signal input path_elements[levels];
    signal input path_indices[levels];
    // private: the remainder's terms (the order's, with the amount left)
    signal input order_side;
    signal input order_amount;
    signal input order_price_limit;
    signal input order_min_fill_size;
    signal input order_expiry_slot;
    signal input order_id;
    signal input market_lo;
    signal input market_hi;

    signal output use_tag;

    component mintLo = U128();
    mintLo.in <== mint_lo;
    component mintHi = U128();
    mintHi.in <== mint_hi;
    component amountBits = U64();
    amountBits.in <== amount;
    component amountNonZero = NonZero();
    amountNonZero.in <== amount;

    // A fully filled order's change has nothing left to trade: locking it would only freeze the
    // owner's note (no match can take q >= 1 from a remainder of 0).
    component remainderNonZero = NonZero();
    remainderNonZero.in <== order_amount;

    component digest = CheckedOrderDigest();
    digest.market_lo <== market_lo;
    digest.market_hi <== market_hi;
    digest.side <== order_side;
    digest.amount <== order_amount;
    digest.price_limit <== order_price_limit;
    digest.min_fill_size <== order_min_fill_size;
    digest.expiry_slot <== order_expiry_slot;
    digest.order_id <== order_id;

    component inner = ChangeInner();
    inner.parent_inner <== parent_inner;
    inner.remainder_digest <== digest.out;

    component note = NoteInTree(levels);
    note.merkle_root <== merkle_root;
    note.mint_lo <== mint_lo;
    note.mint_hi <== mint_hi;
    note.amount <== amount;
    note.owner <== owner_commitment;
    note.inner <== inner.out;
    for (var i = 0; i < levels; i++) {
        note.path_elements[i] <== path_elements[i];
        note.path_indices[i] <== path_indices[i];
    }
    note.commitment === note_commitment;
    note.nullifier === nullifier;

    component tag = UseTag();
    tag.commitment <== note.commitment;
    tag.inner <== inner.out;
    tag.digest <== digest.out;
    use_tag <== tag.out;
}

component main {public [merkle_root, nullifier]} = ValidLock(20);
