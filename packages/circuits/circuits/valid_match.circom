pragma circom 2.0.0;

// VALID_MATCH (DESIGN.md sections 3, 4 and 6): one proof per match of a settlement.
// Public inputs, in this order (VALID_MATCH_PUBLIC_INPUTS of @nightjar/crypto valid-match.ts):
//   [root_bid, nullifier_bid, root_ask, nullifier_ask, base_mint_lo, base_mint_hi,
//    quote_mint_lo, quote_mint_hi, price_scale, fee_bps, fee_owner_commitment,
//    bid_trade_out, bid_change, bid_fee, ask_trade_out, ask_change, ask_fee,
//    bid_relock_nullifier, ask_relock_nullifier]
// Circom orders public inputs by declaration order, so the declarations below
// must stay in exactly this order.
//
// The bid consumes a note in the quote mint, the ask a note in the base mint. Every amount is
// range-checked to 64 bits, so no sum or product below can wrap the field: the largest is
// q * p < 2^128.

include "./note.circom";

// in < 2^64 (circomlib Num2Bits: 64 boolean bits that sum back to in).
template U64() {
    signal input in;
    component bits = Num2Bits(64);
    bits.in <== in;
}

// Poseidon(2, mint_lo, mint_hi, amount, Poseidon(6, owner, inner)).
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

// Poseidon(5, commitment, inner).
template Nullifier() {
    signal input commitment;
    signal input inner;
    signal output out;
    component h = Poseidon(3);
    h.inputs[0] <== 5;
    h.inputs[1] <== commitment;
    h.inputs[2] <== inner;
    out <== h.out;
}

// The consumed note: its commitment is in the tree under `root` and `nullifier` is its own.
template SpentNote(levels) {
    signal input root;
    signal input nullifier;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input owner;
    signal input inner;
    signal input path_elements[levels];
    signal input path_indices[levels];

    component c = NoteCommitment();
    c.mint_lo <== mint_lo;
    c.mint_hi <== mint_hi;
    c.amount <== amount;
    c.owner <== owner;
    c.inner <== inner;

    component tree = MerkleRoot(levels);
    tree.leaf <== c.out;
    for (var i = 0; i < levels; i++) {
        tree.path_elements[i] <== path_elements[i];
        tree.path_indices[i] <== path_indices[i];
    }
    tree.root === root;

    component nf = Nullifier();
    nf.commitment <== c.out;
    nf.inner <== inner;
    nf.out === nullifier;
}

// One output note of a match: inner = Poseidon(4, parent_inner, role), its commitment, and the
// public slot, which is the commitment when amount != 0 and 0 otherwise. The slot is forced both
// ways: a zero-value output is absent, and a non-zero one can never be dropped (burning value).
template MatchOutput(role) {
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input owner;
    signal input parent_inner;
    signal input slot;
    signal output inner;
    signal output commitment;
    signal output is_zero;

    component h = Poseidon(3);
    h.inputs[0] <== 4;
    h.inputs[1] <== parent_inner;
    h.inputs[2] <== role;
    inner <== h.out;

    component c = NoteCommitment();
    c.mint_lo <== mint_lo;
    c.mint_hi <== mint_hi;
    c.amount <== amount;
    c.owner <== owner;
    c.inner <== h.out;
    commitment <== c.out;

    component z = IsZero();
    z.in <== amount;
    is_zero <== z.out;
    slot === (1 - z.out) * c.out;
}

// A relock nullifier is 0 or the change note's own nullifier, and 0 when there is no change note.
template Relock() {
    signal input relock;
    signal input change_commitment;
    signal input change_inner;
    signal input change_is_zero;

    component nf = Nullifier();
    nf.commitment <== change_commitment;
    nf.inner <== change_inner;
    relock * (relock - nf.out) === 0;
    relock * change_is_zero === 0;
}

// floor(num / 10000) for a fee: num == fee * 10000 + rem, 0 <= rem < 10000, fee a u64.
// num is at most (2^64)^2, so the equation holds over the integers, not only mod r.
template FeeFloor() {
    signal input num;
    signal input fee;
    signal input rem;

    component feeBits = U64();
    feeBits.in <== fee;
    component remBits = Num2Bits(14);
    remBits.in <== rem;
    component remLt = LessThan(14);
    remLt.in[0] <== rem;
    remLt.in[1] <== 10000;
    remLt.out === 1;
    num === fee * 10000 + rem;
}

template ValidMatch(levels) {
    // public
    signal input root_bid;
    signal input nullifier_bid;
    signal input root_ask;
    signal input nullifier_ask;
    signal input base_mint_lo;
    signal input base_mint_hi;
    signal input quote_mint_lo;
    signal input quote_mint_hi;
    signal input price_scale;
    signal input fee_bps;
    signal input fee_owner_commitment;
    signal input bid_trade_out;
    signal input bid_change;
    signal input bid_fee;
    signal input ask_trade_out;
    signal input ask_change;
    signal input ask_fee;
    signal input bid_relock_nullifier;
    signal input ask_relock_nullifier;

    // private: the consumed notes
    signal input bid_amount;
    signal input bid_owner;
    signal input bid_inner;
    signal input bid_path_elements[levels];
    signal input bid_path_indices[levels];
    signal input ask_amount;
    signal input ask_owner;
    signal input ask_inner;
    signal input ask_path_elements[levels];
    signal input ask_path_indices[levels];
    // private: the trade, and the hints the constraints below check
    signal input quantity;
    signal input price;
    signal input quote;
    signal input quote_rem;
    signal input bid_fee_amount;
    signal input bid_fee_rem;
    signal input ask_fee_amount;
    signal input ask_fee_rem;
    signal input bid_change_amount;
    signal input ask_change_amount;

    // --- Range checks: every amount is a u64 (a negative value wraps to ~2^254 and fails).
    component u64s[10];
    var amounts[10] = [
        price_scale, fee_bps, bid_amount, ask_amount, quantity, price, quote, quote_rem,
        bid_change_amount, ask_change_amount
    ];
    for (var i = 0; i < 10; i++) {
        u64s[i] = U64();
        u64s[i].in <== amounts[i];
    }

    // quantity != 0 (an empty match would consume two notes for nothing).
    signal quantity_inv;
    quantity_inv <-- quantity != 0 ? 1 / quantity : 0;
    quantity * quantity_inv === 1;

    // --- Economics (DESIGN 4), exact floors.
    // quote = floor(q * p / price_scale): q * p == quote * price_scale + quote_rem, with
    // quote_rem < price_scale (which also forces price_scale != 0).
    signal qp;
    qp <== quantity * price;
    qp === quote * price_scale + quote_rem;
    component remLt = LessThan(64);
    remLt.in[0] <== quote_rem;
    remLt.in[1] <== price_scale;
    remLt.out === 1;

    // bid fee = floor(quote * fee_bps / 10000), ask fee = floor(q * fee_bps / 10000).
    component bidFee = FeeFloor();
    bidFee.num <== quote * fee_bps;
    bidFee.fee <== bid_fee_amount;
    bidFee.rem <== bid_fee_rem;
    component askFee = FeeFloor();
    askFee.num <== quantity * fee_bps;
    askFee.fee <== ask_fee_amount;
    askFee.rem <== ask_fee_rem;

    // Conservation per input note: everything it yields sums to its value exactly. Each term is
    // a u64, so the sum cannot wrap: a change of (amount - out) mod r fails its range check.
    bid_amount === quote + bid_fee_amount + bid_change_amount;
    ask_amount === quantity + ask_fee_amount + ask_change_amount;

    // --- The consumed notes: bid in the quote mint, ask in the base mint.
    component bidNote = SpentNote(levels);
    bidNote.root <== root_bid;
    bidNote.nullifier <== nullifier_bid;
    bidNote.mint_lo <== quote_mint_lo;
    bidNote.mint_hi <== quote_mint_hi;
    bidNote.amount <== bid_amount;
    bidNote.owner <== bid_owner;
    bidNote.inner <== bid_inner;
    component askNote = SpentNote(levels);
    askNote.root <== root_ask;
    askNote.nullifier <== nullifier_ask;
    askNote.mint_lo <== base_mint_lo;
    askNote.mint_hi <== base_mint_hi;
    askNote.amount <== ask_amount;
    askNote.owner <== ask_owner;
    askNote.inner <== ask_inner;
    for (var i = 0; i < levels; i++) {
        bidNote.path_elements[i] <== bid_path_elements[i];
        bidNote.path_indices[i] <== bid_path_indices[i];
        askNote.path_elements[i] <== ask_path_elements[i];
        askNote.path_indices[i] <== ask_path_indices[i];
    }

    // --- Outputs (MATCH_OUTPUT_SLOTS): trade-out and change to the input's owner, fees to the vault.
    component out[6];
    out[0] = MatchOutput(1); // bid_trade_out: base, q
    out[0].mint_lo <== base_mint_lo;
    out[0].mint_hi <== base_mint_hi;
    out[0].amount <== quantity;
    out[0].owner <== bid_owner;
    out[0].parent_inner <== bid_inner;
    out[0].slot <== bid_trade_out;

    out[1] = MatchOutput(2); // bid_change: quote
    out[1].mint_lo <== quote_mint_lo;
    out[1].mint_hi <== quote_mint_hi;
    out[1].amount <== bid_change_amount;
    out[1].owner <== bid_owner;
    out[1].parent_inner <== bid_inner;
    out[1].slot <== bid_change;

    out[2] = MatchOutput(3); // bid_fee: quote
    out[2].mint_lo <== quote_mint_lo;
    out[2].mint_hi <== quote_mint_hi;
    out[2].amount <== bid_fee_amount;
    out[2].owner <== fee_owner_commitment;
    out[2].parent_inner <== bid_inner;
    out[2].slot <== bid_fee;

    out[3] = MatchOutput(1); // ask_trade_out: quote, quote
    out[3].mint_lo <== quote_mint_lo;
    out[3].mint_hi <== quote_mint_hi;
    out[3].amount <== quote;
    out[3].owner <== ask_owner;
    out[3].parent_inner <== ask_inner;
    out[3].slot <== ask_trade_out;

    out[4] = MatchOutput(2); // ask_change: base
    out[4].mint_lo <== base_mint_lo;
    out[4].mint_hi <== base_mint_hi;
    out[4].amount <== ask_change_amount;
    out[4].owner <== ask_owner;
    out[4].parent_inner <== ask_inner;
    out[4].slot <== ask_change;

    out[5] = MatchOutput(3); // ask_fee: base
    out[5].mint_lo <== base_mint_lo;
    out[5].mint_hi <== base_mint_hi;
    out[5].amount <== ask_fee_amount;
    out[5].owner <== fee_owner_commitment;
    out[5].parent_inner <== ask_inner;
    out[5].slot <== ask_fee;

    // --- Relocks of the change notes.
    component bidRelock = Relock();
    bidRelock.relock <== bid_relock_nullifier;
    bidRelock.change_commitment <== out[1].commitment;
    bidRelock.change_inner <== out[1].inner;
    bidRelock.change_is_zero <== out[1].is_zero;
    component askRelock = Relock();
    askRelock.relock <== ask_relock_nullifier;
    askRelock.change_commitment <== out[4].commitment;
    askRelock.change_inner <== out[4].inner;
    askRelock.change_is_zero <== out[4].is_zero;
}

component main {public [
    root_bid, nullifier_bid, root_ask, nullifier_ask,
    base_mint_lo, base_mint_hi, quote_mint_lo, quote_mint_hi,
    price_scale, fee_bps, fee_owner_commitment,
    bid_trade_out, bid_change, bid_fee, ask_trade_out, ask_change, ask_fee,
    bid_relock_nullifier, ask_relock_nullifier
]} = ValidMatch(20);
