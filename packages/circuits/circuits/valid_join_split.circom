pragma circom 2.0.0;

// VALID_JOIN_SPLIT: consume up to 4 notes of one mint and one owner and create up to 8 notes of
// the same mint and owner, conserving value (the ledger's `join_split`; docs/ledger.md). A split is
// 1 -> n, a merge n -> 1; both are this circuit.
//
// Public inputs, in this order (Circom orders public inputs by declaration order):
//   [merkle_roots[4], nullifiers[4], output_commitments[8], memo_hash]
// An unused input slot has root 0 and nullifier 0; an unused output slot has commitment 0. Used
// inputs come first (input 0 is always used). The mint, every amount, every inner hash, every
// leaf position and the owner stay private: nothing links an input to its leaf or its deposit.
//
// Output j's inner hash is Poseidon(7, inner of input 0, j): input 0's note is consumed here, so
// its inner (and so every output's) is never derived twice; the owner's wallet recomputes the
// outputs from the memo (amounts) and its keys.
//
// memo_hash binds the memo stored with the transaction, so a copy of the proof cannot be sent
// with a different memo.

include "./note.circom";

// One input slot: the note's commitment and nullifier, its inclusion under `merkle_root` when
// used, and zeros in the public signals when not.
template JoinSplitInput(levels) {
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

    component amountBits = Num2Bits(64);
    amountBits.in <== amount;
    component isZero = IsZero();
    isZero.in <== amount;
    used <== 1 - isZero.out;

    component opening = Poseidon(3);
    opening.inputs[0] <== 6;
    opening.inputs[1] <== owner;
    opening.inputs[2] <== note_inner_hash;

    component commitment = Poseidon(5);
    commitment.inputs[0] <== 2;
    commitment.inputs[1] <== mint_lo;
    commitment.inputs[2] <== mint_hi;
    commitment.inputs[3] <== amount;
    commitment.inputs[4] <== opening.out;

    component nf = Poseidon(3);
    nf.inputs[0] <== 5;
    nf.inputs[1] <== commitment.out;
    nf.inputs[2] <== note_inner_hash;

    component tree = MerkleRoot(levels);
    tree.leaf <== commitment.out;
    for (var i = 0; i < levels; i++) {
        tree.path_elements[i] <== path_elements[i];
        tree.path_indices[i] <== path_indices[i];
    }
    // Used: the note is under the public root. Unused: the root is 0.
    signal rootDiff;
    rootDiff <== used * (tree.root - merkle_root);
    rootDiff === 0;
    (1 - used) * merkle_root === 0;
    nullifier === used * nf.out;
}

// One output slot: its commitment when its amount is non-zero, else 0.
template JoinSplitOutput() {
    signal input owner;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input parent_inner;
    signal input index;
    signal input commitment;

    component amountBits = Num2Bits(64);
    amountBits.in <== amount;
    component isZero = IsZero();
    isZero.in <== amount;

    component inner = Poseidon(3);
    inner.inputs[0] <== 7;
    inner.inputs[1] <== parent_inner;
    inner.inputs[2] <== index;

    component opening = Poseidon(3);
    opening.inputs[0] <== 6;
    opening.inputs[1] <== owner;
    opening.inputs[2] <== inner.out;

    component c = Poseidon(5);
    c.inputs[0] <== 2;
    c.inputs[1] <== mint_lo;
    c.inputs[2] <== mint_hi;
    c.inputs[3] <== amount;
    c.inputs[4] <== opening.out;

    commitment === (1 - isZero.out) * c.out;
}

template ValidJoinSplit(levels, nIn, nOut) {
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

    // mint halves are 16-byte big-endian integers.
    component mintLoBits = Num2Bits(128);
    mintLoBits.in <== mint_lo;
    component mintHiBits = Num2Bits(128);
    mintHiBits.in <== mint_hi;

    // One owner for every input and output.
    component owner = Poseidon(2);
    owner.inputs[0] <== 1;
    owner.inputs[1] <== spending_key;

    component ins[nIn];
    var inSum = 0;
    for (var i = 0; i < nIn; i++) {
        ins[i] = JoinSplitInput(levels);
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

    component outs[nOut];
    var outSum = 0;
    for (var j = 0; j < nOut; j++) {
        outs[j] = JoinSplitOutput();
        outs[j].owner <== owner.out;
        outs[j].mint_lo <== mint_lo;
        outs[j].mint_hi <== mint_hi;
        outs[j].amount <== out_amounts[j];
        outs[j].parent_inner <== in_inner_hashes[0];
        outs[j].index <== j;
        outs[j].commitment <== output_commitments[j];
        outSum += out_amounts[j];
    }

    // Every amount is below 2^64, so neither sum (at most 8 * 2^64) wraps the field.
    inSum === outSum;

    // Bind the memo: it must appear in a constraint.
    signal memo_hash_sq;
    memo_hash_sq <== memo_hash * memo_hash;
}

component main {public [merkle_roots, nullifiers, output_commitments, memo_hash]} = ValidJoinSplit(20, 4, 8);
