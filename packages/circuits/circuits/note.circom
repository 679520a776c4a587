pragma circom 2.0.0;

// Nightjar note logic shared by VALID_INPUT and VALID_SPEND (DESIGN.md section 3).
//
//   owner_commitment = Poseidon(1, spending_key)
//   opening_hash     = Poseidon(6, owner_commitment, note_inner_hash)
//   note_commitment  = Poseidon(2, mint_lo, mint_hi, amount, opening_hash)
//   nullifier        = Poseidon(5, note_commitment, note_inner_hash)
//   Merkle node      = Poseidon(left, right), depth `levels`, zero leaf 0
//
// path_indices[i] is bit i of the leaf index (least significant first);
// 1 means the current node is the right child at level i.

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";

// Recomputes the Merkle root from a leaf and its authentication path.
template MerkleRoot(levels) {
    signal input leaf;
    signal input path_elements[levels];
    signal input path_indices[levels];
    signal output root;

    component hashers[levels];
    signal cur[levels + 1];
    // swap[i] = path_indices[i] * (sibling - current): one product per level
    // gives both children (left = cur + swap, right = sibling - swap).
    signal swap[levels];

    cur[0] <== leaf;
    for (var i = 0; i < levels; i++) {
        // Each index bit must be boolean, or the swap below could mix the children.
        path_indices[i] * (path_indices[i] - 1) === 0;

        swap[i] <== path_indices[i] * (path_elements[i] - cur[i]);

        hashers[i] = Poseidon(2);
        hashers[i].inputs[0] <== cur[i] + swap[i];
        hashers[i].inputs[1] <== path_elements[i] - swap[i];
        cur[i + 1] <== hashers[i].out;
    }
    root <== cur[levels];
}

// Everything VALID_INPUT and VALID_SPEND have in common: the note opening,
// the range checks, the nullifier, and inclusion under merkle_root.
template NoteOwnership(levels) {
    signal input merkle_root;
    signal input mint_lo;
    signal input mint_hi;
    signal input amount;
    signal input spending_key;
    signal input note_inner_hash;
    signal input path_elements[levels];
    signal input path_indices[levels];

    signal output note_commitment;
    signal output nullifier;

    // mint halves are 16-byte big-endian integers.
    component mintLoBits = Num2Bits(128);
    mintLoBits.in <== mint_lo;
    component mintHiBits = Num2Bits(128);
    mintHiBits.in <== mint_hi;

    // amount is a non-zero u64.
    component amountBits = Num2Bits(64);
    amountBits.in <== amount;
    component amountIsZero = IsZero();
    amountIsZero.in <== amount;
    amountIsZero.out === 0;

    component owner = Poseidon(2);
    owner.inputs[0] <== 1;
    owner.inputs[1] <== spending_key;

    component opening = Poseidon(3);
    opening.inputs[0] <== 6;
    opening.inputs[1] <== owner.out;
    opening.inputs[2] <== note_inner_hash;

    component commitment = Poseidon(5);
    commitment.inputs[0] <== 2;
    commitment.inputs[1] <== mint_lo;
    commitment.inputs[2] <== mint_hi;
    commitment.inputs[3] <== amount;
    commitment.inputs[4] <== opening.out;
    note_commitment <== commitment.out;

    component nf = Poseidon(3);
    nf.inputs[0] <== 5;
    nf.inputs[1] <== commitment.out;
    nf.inputs[2] <== note_inner_hash;
    nullifier <== nf.out;

    component tree = MerkleRoot(levels);
    tree.leaf <== commitment.out;
    for (var i = 0; i < levels; i++) {
        tree.path_elements[i] <== path_elements[i];
        tree.path_indices[i] <== path_indices[i];
    }
    tree.root === merkle_root;
}
