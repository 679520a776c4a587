pragma circom 2.0.0;

// VALID_JOIN_SPLIT v2: VALID_JOIN_SPLIT (valid_join_split.circom, same signals, same public
// inputs [merkle_roots[4], nullifiers[4], output_commitments[8], memo_hash]) plus pairwise-distinct
// nullifiers among the used inputs, so one note cannot be counted twice in the input sum even if
// a ledger failed to compare the nullifiers of one transaction.
//
// An unused input slot has root 0 and nullifier 0; used inputs come first (input 0 always). Output
// j's inner is Poseidon(7, inner of input 0, j); an unused output slot has commitment 0.

include "./settlement_v2.circom";

// One input slot: when used (amount != 0), the note under `merkle_root` with `nullifier`; when
// not, root and nullifier 0.
template JoinSplitInputV2(levels) {
    signal input owner;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input note_inner_hash;
    signal input path_elements[levels];
    signal input path_indices[levels];
    signal input merkle_root;
    signal input nullifier;
    signal output used;

    component amountBits = U64();
    amountBits.in <== amount;
    component isZero = IsZero();
    isZero.in <== amount;
    used <== 1 - isZero.out;

    // NoteInTree would require the root unconditionally; an unused slot has none.
    component c = NoteCommitment();
    c.mint_lo <== mint_lo;
    c.mint_hi <== mint_hi;
    c.amount <== amount;
    c.owner <== owner;
    c.inner <== note_inner_hash;
    component nf = Poseidon(3);
    nf.inputs[0] <== 5;
    nf.inputs[1] <== c.out;
    nf.inputs[2] <== note_inner_hash;
    component tree = MerkleRoot(levels);
    tree.leaf <== c.out;
    for (var i = 0; i < levels; i++) {
        tree.path_elements[i] <== path_elements[i];
        tree.path_indices[i] <== path_indices[i];
    }
    signal rootDiff;
    rootDiff <== used * (tree.root - merkle_root);
    rootDiff === 0;
    (1 - used) * merkle_root === 0;
    nullifier === used * nf.out;
}

// Nullifiers a and b differ when the later slot is used (used slots form a prefix, so then both
// are): (a - b) * inv == used_b has no solution for a == b, used_b == 1.
template DistinctWhenUsed() {
    signal input a;
    signal input b;
    signal input used_b;
    signal inv;
    // used_b / (a - b): 0 for an unused slot, whatever the difference (a used slot's nullifier
    // against an unused slot's 0 differs, yet the product must be 0 there).
    inv <-- a != b ? used_b / (a - b) : 0;
    (a - b) * inv === used_b;
}

template ValidJoinSplitV2(levels, nIn, nOut) {
    // public
    signal input merkle_roots[nIn];
    signal input nullifiers[nIn];
    signal input output_commitments[nOut];
    signal input memo_hash;
    // private
    signal input spending_key;
    signal input mint_lo;
    signal input mint_hi;
    signal input in_amounts[nIn];
    signal input in_inner_hashes[nIn];
    signal input path_elements[nIn][levels];
    signal input path_indices[nIn][levels];
    signal input out_amounts[nOut];

    component mintLo = U128();
    mintLo.in <== mint_lo;
    component mintHi = U128();
    mintHi.in <== mint_hi;

    // One owner for every input and output.
    component owner = Poseidon(2);
    owner.inputs[0] <== 1;
    owner.inputs[1] <== spending_key;

    component ins[nIn];
    var inSum = 0;
    for (var i = 0; i < nIn; i++) {
        ins[i] = JoinSplitInputV2(levels);
        ins[i].owner <== owner.out;
        ins[i].mint_lo <== mint_lo;
        ins[i].mint_hi <== mint_hi;
        ins[i].amount <== in_amounts[i];
        ins[i].note_inner_hash <== in_inner_hashes[i];
        for (var k = 0; k < levels; k++) {
            ins[i].path_elements[k] <== path_elements[i][k];
            ins[i].path_indices[k] <== path_indices[i][k];
        }
        ins[i].merkle_root <== merkle_roots[i];
        ins[i].nullifier <== nullifiers[i];
        inSum += in_amounts[i];
    }
    // Input 0 is used, and used inputs form a prefix (one encoding per set of inputs).
    ins[0].used === 1;
    for (var i = 1; i < nIn; i++) {
        ins[i].used * (1 - ins[i - 1].used) === 0;
    }
    // A note counted twice has one nullifier in two used slots.
    component distinct[nIn * (nIn - 1) / 2];
    var pair = 0;
    for (var i = 0; i < nIn; i++) {
        for (var j = i + 1; j < nIn; j++) {
            distinct[pair] = DistinctWhenUsed();
            distinct[pair].a <== nullifiers[i];
            distinct[pair].b <== nullifiers[j];
            distinct[pair].used_b <== ins[j].used;
            pair++;
        }
    }

    // Outputs: the commitment when the amount is non-zero, else 0.
    component outAmounts[nOut];
    component outZero[nOut];
    component outInner[nOut];
    component outNote[nOut];
    var outSum = 0;
    for (var j = 0; j < nOut; j++) {
        outAmounts[j] = U64();
        outAmounts[j].in <== out_amounts[j];
        outZero[j] = IsZero();
        outZero[j].in <== out_amounts[j];
        outInner[j] = Poseidon(3);
        outInner[j].inputs[0] <== 7;
        outInner[j].inputs[1] <== in_inner_hashes[0];
        outInner[j].inputs[2] <== j;
        outNote[j] = NoteCommitment();
        outNote[j].mint_lo <== mint_lo;
        outNote[j].mint_hi <== mint_hi;
        outNote[j].amount <== out_amounts[j];
        outNote[j].owner <== owner.out;
        outNote[j].inner <== outInner[j].out;
        output_commitments[j] === (1 - outZero[j].out) * outNote[j].out;
        outSum += out_amounts[j];
    }

    // Every amount is below 2^64, so neither sum (at most 8 * 2^64) wraps the field.
    inSum === outSum;

    // Bind the memo (joinSplitMemoHash: the memo and each output's shard).
    signal memo_hash_sq;
    memo_hash_sq <== memo_hash * memo_hash;
}

component main {public [merkle_roots, nullifiers, output_commitments, memo_hash]} = ValidJoinSplitV2(20, 4, 8);
