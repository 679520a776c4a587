pragma circom 2.0.0;

// VALID_MATCH v2 (DESIGN.md sections 3, 4 and 6): one proof per match of a settlement, with no
// Merkle path. Public inputs, in this order (VALID_MATCH_V2_PUBLIC_INPUTS of @nightjar/crypto
// valid-match-v2.ts; circom orders them by declaration order, so keep the declarations so):
//   [bid_use_tag, ask_use_tag, market_lo, market_hi, base_mint_lo, base_mint_hi,
//    quote_mint_lo, quote_mint_hi, price_scale, fee_bps, fee_owner_commitment, settle_by_slot,
//    bid_trade_out, bid_change, bid_fee, ask_trade_out, ask_change, ask_fee, memo_hash]
//
// Each input opens the use tag its lock recorded: the lock's proof (VALID_INPUT from the owner,
// or VALID_LOCK) showed the note in the tree with the consumed nullifier and range-checked the
// note's amount and the order's terms, which the tag binds. So here those values need no range
// check of their own: any other opening of the tag is a Poseidon collision.
//
// Comparisons are range checks of differences: with a, b < 2^64, b - a < 2^64 holds exactly when
// a <= b (otherwise it wraps to about 2^254). Every product below is under 2^128, far below r.

include "./settlement_v2.circom";

// Both fee floors: num == fee * 10000 + rem with 0 <= rem <= 9999, so fee = floor(num / 10000).
template FeeFloor() {
    signal input num;
    signal input fee;
    signal input rem;

    component feeBits = U64();
    feeBits.in <== fee;
    component remBits = Num2Bits(14);
    remBits.in <== rem;
    component remMax = Num2Bits(14);
    remMax.in <== 9999 - rem;
    num === fee * 10000 + rem;
}

// One side of the match: its input note and order (opened from the use tag), the order's terms
// against the trade, the note's value split into what it pays, its fee and its change, and its
// three outputs. `side` is 0 for the bid and 1 for the ask, a constant of the digest: a bid's tag
// cannot be opened as an ask's.
template MatchParty(side) {
    signal input use_tag;
    signal input market_lo;
    signal input market_hi;
    // The note's mint, and the mint of what it receives.
    signal input in_mint_lo;
    signal input in_mint_hi;
    signal input out_mint_lo;
    signal input out_mint_hi;
    signal input fee_owner;
    signal input settle_by_slot;
    // The trade: q, what this side pays (quote for the bid, q for the ask), what it receives.
    signal input quantity;
    signal input pays;
    signal input receives;
    signal input fee;
    signal input change;
    // The note's opening and the order's terms (private).
    signal input amount;
    signal input owner;
    signal input inner;
    signal input order_amount;
    signal input price_limit;
    signal input min_fill_size;
    signal input expiry_slot;
    signal input order_id;
    // The public output commitments.
    signal input trade_out_slot;
    signal input change_slot;
    signal input fee_slot;

    // --- The use tag opens to this note and this order, in this market, on this side.
    component note = NoteCommitment();
    note.mint_lo <== in_mint_lo;
    note.mint_hi <== in_mint_hi;
    note.amount <== amount;
    note.owner <== owner;
    note.inner <== inner;

    component digest = OrderDigest();
    digest.market_lo <== market_lo;
    digest.market_hi <== market_hi;
    digest.side <== side;
    digest.amount <== order_amount;
    digest.price_limit <== price_limit;
    digest.min_fill_size <== min_fill_size;
    digest.expiry_slot <== expiry_slot;
    digest.order_id <== order_id;

    component tag = UseTag();
    tag.commitment <== note.out;
    tag.inner <== inner;
    tag.digest <== digest.out;
    tag.out === use_tag;

    // --- The order's terms: q <= the amount left, q >= its min fill, alive after settle_by_slot.
    signal left;
    left <== order_amount - quantity;
    component leftBits = U64();
    leftBits.in <== left;
    component minFill = U64();
    minFill.in <== quantity - min_fill_size;
    component alive = U64();
    alive.in <== expiry_slot - settle_by_slot - 1;

    // --- Value: the note pays exactly what it gives, its fee and its change (each a u64, so a
    // negative change, (amount - out) mod r, fails its range check).
    component changeBits = U64();
    changeBits.in <== change;
    amount === pays + fee + change;

    // --- Outputs: trade-out and change to the note's owner, the fee to the vault's fee owner;
    // always all three, a zero-value one as a commitment to a zero-value note.
    component remainder = OrderDigest();
    remainder.market_lo <== market_lo;
    remainder.market_hi <== market_hi;
    remainder.side <== side;
    remainder.amount <== left;
    remainder.price_limit <== price_limit;
    remainder.min_fill_size <== min_fill_size;
    remainder.expiry_slot <== expiry_slot;
    remainder.order_id <== order_id;

    component tradeInner = OutputInner(1);
    tradeInner.parent_inner <== inner;
    component tradeOut = NoteCommitment();
    tradeOut.mint_lo <== out_mint_lo;
    tradeOut.mint_hi <== out_mint_hi;
    tradeOut.amount <== receives;
    tradeOut.owner <== owner;
    tradeOut.inner <== tradeInner.out;
    tradeOut.out === trade_out_slot;

    component changeInner = ChangeInner();
    changeInner.parent_inner <== inner;
    changeInner.remainder_digest <== remainder.out;
    component changeOut = NoteCommitment();
    changeOut.mint_lo <== in_mint_lo;
    changeOut.mint_hi <== in_mint_hi;
    changeOut.amount <== change;
    changeOut.owner <== owner;
    changeOut.inner <== changeInner.out;
    changeOut.out === change_slot;

    component feeInner = OutputInner(3);
    feeInner.parent_inner <== inner;
    component feeOut = NoteCommitment();
    feeOut.mint_lo <== in_mint_lo;
    feeOut.mint_hi <== in_mint_hi;
    feeOut.amount <== fee;
    feeOut.owner <== fee_owner;
    feeOut.inner <== feeInner.out;
    feeOut.out === fee_slot;
}

template ValidMatchV2() {
    // public
    signal input bid_use_tag;
    signal input ask_use_tag;
    signal input market_lo;
    signal input market_hi;
    signal input base_mint_lo;
    signal input base_mint_hi;
    signal input quote_mint_lo;
    signal input quote_mint_hi;
    signal input price_scale;
    signal input fee_bps;
    signal input fee_owner_commitment;
    signal input settle_by_slot;
    signal input bid_trade_out;
    signal input bid_change;
    signal input bid_fee;
    signal input ask_trade_out;
    signal input ask_change;
    signal input ask_fee;
    signal input memo_hash;

    // private: the consumed notes and their orders
    signal input bid_amount;
    signal input bid_owner;
    signal input bid_inner;
    signal input bid_order_amount;
    signal input bid_price_limit;
    signal input bid_min_fill_size;
    signal input bid_expiry_slot;
    signal input bid_order_id;
    signal input ask_amount;
    signal input ask_owner;
    signal input ask_inner;
    signal input ask_order_amount;
    signal input ask_price_limit;
    signal input ask_min_fill_size;
    signal input ask_expiry_slot;
    signal input ask_order_id;
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

    // --- The price lies within both limits: ask_limit <= p <= bid_limit. With both limits below
    // 2^64 (bound by the use tags) this also makes p itself a u64.
    component underBid = U64();
    underBid.in <== bid_price_limit - price;
    component overAsk = U64();
    overAsk.in <== price - ask_price_limit;

    // q != 0 (an empty match would consume two notes for nothing). Each side checks
    // min_fill <= q <= its amount left, which makes q a u64.
    component nonEmpty = NonZero();
    nonEmpty.in <== quantity;

    // --- DESIGN 4, exact floors. quote = floor(q * p / price_scale):
    // q * p == quote * price_scale + quote_rem, 0 <= quote_rem <= price_scale - 1 (which also
    // rules out price_scale == 0). Both sides are below 2^129, so the equation is over integers.
    signal qp;
    qp <== quantity * price;
    qp === quote * price_scale + quote_rem;
    component quoteBits = U64();
    quoteBits.in <== quote;
    component remBits = U64();
    remBits.in <== quote_rem;
    component remBelow = U64();
    remBelow.in <== price_scale - 1 - quote_rem;

    // bid fee = floor(quote * fee_bps / 10000), ask fee = floor(q * fee_bps / 10000).
    component bidFee = FeeFloor();
    bidFee.num <== quote * fee_bps;
    bidFee.fee <== bid_fee_amount;
    bidFee.rem <== bid_fee_rem;
    component askFee = FeeFloor();
    askFee.num <== quantity * fee_bps;
    askFee.fee <== ask_fee_amount;
    askFee.rem <== ask_fee_rem;

    // --- The bid (0) pays quote + fee from a quote-mint note and receives q base; the ask (1) pays
    // q + fee from a base-mint note and receives quote.
    var in_lo[2] = [quote_mint_lo, base_mint_lo];
    var in_hi[2] = [quote_mint_hi, base_mint_hi];
    var pays[2] = [quote, quantity];
    var fees[2] = [bid_fee_amount, ask_fee_amount];
    var changes[2] = [bid_change_amount, ask_change_amount];
    var tags[2] = [bid_use_tag, ask_use_tag];
    var amounts[2] = [bid_amount, ask_amount];
    var owners[2] = [bid_owner, ask_owner];
    var inners[2] = [bid_inner, ask_inner];
    var order_amounts[2] = [bid_order_amount, ask_order_amount];
    var limits[2] = [bid_price_limit, ask_price_limit];
    var min_fills[2] = [bid_min_fill_size, ask_min_fill_size];
    var expiries[2] = [bid_expiry_slot, ask_expiry_slot];
    var order_ids[2] = [bid_order_id, ask_order_id];
    var trade_outs[2] = [bid_trade_out, ask_trade_out];
    var change_slots[2] = [bid_change, ask_change];
    var fee_slots[2] = [bid_fee, ask_fee];

    component party[2];
    for (var s = 0; s < 2; s++) {
        party[s] = MatchParty(s);
        party[s].use_tag <== tags[s];
        party[s].market_lo <== market_lo;
        party[s].market_hi <== market_hi;
        party[s].in_mint_lo <== in_lo[s];
        party[s].in_mint_hi <== in_hi[s];
        // Each side receives the other side's mint.
        party[s].out_mint_lo <== in_lo[1 - s];
        party[s].out_mint_hi <== in_hi[1 - s];
        party[s].fee_owner <== fee_owner_commitment;
        party[s].settle_by_slot <== settle_by_slot;
        party[s].quantity <== quantity;
        party[s].pays <== pays[s];
        party[s].receives <== pays[1 - s];
        party[s].fee <== fees[s];
        party[s].change <== changes[s];
        party[s].amount <== amounts[s];
        party[s].owner <== owners[s];
        party[s].inner <== inners[s];
        party[s].order_amount <== order_amounts[s];
        party[s].price_limit <== limits[s];
        party[s].min_fill_size <== min_fills[s];
        party[s].expiry_slot <== expiries[s];
        party[s].order_id <== order_ids[s];
        party[s].trade_out_slot <== trade_outs[s];
        party[s].change_slot <== change_slots[s];
        party[s].fee_slot <== fee_slots[s];
    }

    // Bind the memos and output shards (matchMemoHash): it must appear in a constraint.
    signal memo_hash_sq;
    memo_hash_sq <== memo_hash * memo_hash;
}

component main {public [
    bid_use_tag, ask_use_tag, market_lo, market_hi,
    base_mint_lo, base_mint_hi, quote_mint_lo, quote_mint_hi,
    price_scale, fee_bps, fee_owner_commitment, settle_by_slot,
    bid_trade_out, bid_change, bid_fee, ask_trade_out, ask_change, ask_fee,
    memo_hash
]} = ValidMatchV2();
