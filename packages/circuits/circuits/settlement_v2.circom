pragma circom 2.0.0;

// Templates shared by the settlement v2 circuits (DESIGN.md sections 3, 4 and 6): VALID_INPUT v2,
// VALID_LOCK, VALID_MATCH v2, VALID_SPEND v2 and VALID_JOIN_SPLIT v2.
//
//   note_commitment = Poseidon(2, mint_lo, mint_hi, amount, Poseidon(6, owner, inner))
//   nullifier       = Poseidon(5, note_commitment, inner)
//   order digest    = Poseidon(10, market_lo, market_hi, side, amount, price_limit,
//                              min_fill_size, expiry_slot, order_id)
//   use tag         = Poseidon(8, note_commitment, inner, order digest)
//   output inner    = Poseidon(4, parent_inner, role) (1 trade-out, 3 fee);
//                     change: Poseidon(4, parent_inner, 2, remainder digest)

include "./note.circom";

// in < 2^64. A difference b - a of two u64 values passes only when a <= b (else it wraps to
// about 2^254), which is how every comparison below is made: 64 constraints, no LessThan.
template U64() {
    signal input in;
    component bits = Num2Bits(64);
    bits.in <== in;
}

template U128() {
    signal input in;
    component bits = Num2Bits(128);
    bits.in <== in;
}

// in != 0, one constraint (IsZero takes two).
template NonZero() {
    signal input in;
    signal inv;
    inv <-- in != 0 ? 1 / in : 0;
    in * inv === 1;
}

template NoteCommitment() {
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input owner;
    signal input inner;
    signal output out;

    component opening = Poseidon(3);
    opening.inputs[0] <== 6;
    opening.inputs[1] <== owner;
    opening.inputs[2] <== inner;

    component commitment = Poseidon(5);
    commitment.inputs[0] <== 2;
    commitment.inputs[1] <== mint_lo;
    commitment.inputs[2] <== mint_hi;
    commitment.inputs[3] <== amount;
    commitment.inputs[4] <== opening.out;
    out <== commitment.out;
}

// A note under `merkle_root` at depth `levels`, with its nullifier. The caller range-checks the
// mint halves and the amount.
template NoteInTree(levels) {
    signal input merkle_root;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input owner;
    signal input inner;
    signal input path_elements[levels];
    signal input path_indices[levels];
    signal output commitment;
    signal output nullifier;

    component c = NoteCommitment();
    c.mint_lo <== mint_lo;
    c.mint_hi <== mint_hi;
    c.amount <== amount;
    c.owner <== owner;
    c.inner <== inner;
    commitment <== c.out;

    component nf = Poseidon(3);
    nf.inputs[0] <== 5;
    nf.inputs[1] <== c.out;
    nf.inputs[2] <== inner;
    nullifier <== nf.out;

    component tree = MerkleRoot(levels);
    tree.leaf <== c.out;
    for (var i = 0; i < levels; i++) {
        tree.path_elements[i] <== path_elements[i];
        tree.path_indices[i] <== path_indices[i];
    }
    tree.root === merkle_root;
}

template OrderDigest() {
    signal input market_lo;
    signal input market_hi;
    signal input side;
    signal input amount;
    signal input price_limit;
    signal input min_fill_size;
    signal input expiry_slot;
    signal input order_id;
    signal output out;

    component h = Poseidon(9);
    h.inputs[0] <== 10;
    h.inputs[1] <== market_lo;
    h.inputs[2] <== market_hi;
    h.inputs[3] <== side;
    h.inputs[4] <== amount;
    h.inputs[5] <== price_limit;
    h.inputs[6] <== min_fill_size;
    h.inputs[7] <== expiry_slot;
    h.inputs[8] <== order_id;
    out <== h.out;
}

// The digest of an order whose terms are first bound here (VALID_INPUT, VALID_LOCK), with the
// ranges its terms have in a real order (DESIGN 1 and 2), so that a digest has one preimage in
// range and VALID_MATCH can compare the terms it opens without checking them again.
template CheckedOrderDigest() {
    signal input market_lo;
    signal input market_hi;
    signal input side;
    signal input amount;
    signal input price_limit;
    signal input min_fill_size;
    signal input expiry_slot;
    signal input order_id;
    signal output out;

    component u128s[3];
    var halves[3] = [market_lo, market_hi, order_id];
    for (var i = 0; i < 3; i++) {
        u128s[i] = U128();
        u128s[i].in <== halves[i];
    }
    side * (side - 1) === 0;
    component u64s[4];
    var terms[4] = [amount, price_limit, min_fill_size, expiry_slot];
    for (var i = 0; i < 4; i++) {
        u64s[i] = U64();
        u64s[i].in <== terms[i];
    }

    component digest = OrderDigest();
    digest.market_lo <== market_lo;
    digest.market_hi <== market_hi;
    digest.side <== side;
    digest.amount <== amount;
    digest.price_limit <== price_limit;
    digest.min_fill_size <== min_fill_size;
    digest.expiry_slot <== expiry_slot;
    digest.order_id <== order_id;
    out <== digest.out;
}

template UseTag() {
    signal input commitment;
    signal input inner;
    signal input digest;
    signal output out;

    component h = Poseidon(4);
    h.inputs[0] <== 8;
    h.inputs[1] <== commitment;
    h.inputs[2] <== inner;
    h.inputs[3] <== digest;
    out <== h.out;
}

// Output inner of a trade-out (role 1) or fee (role 3) note.
template OutputInner(role) {
    signal input parent_inner;
    signal output out;

    component h = Poseidon(3);
    h.inputs[0] <== 4;
    h.inputs[1] <== parent_inner;
    h.inputs[2] <== role;
    out <== h.out;
}

// A change note's inner carries the digest of its order's remainder, which VALID_LOCK opens.
template ChangeInner() {
    signal input parent_inner;
    signal input remainder_digest;
    signal output out;

    component h = Poseidon(4);
    h.inputs[0] <== 4;
    h.inputs[1] <== parent_inner;
    h.inputs[2] <== 2;
    h.inputs[3] <== remainder_digest;
    out <== h.out;
}
