import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import {
  decryptNoteMemo,
  encryptNoteMemo,
  generateX25519KeyPair,
  MerkleTree,
  NOTE_MEMO_BYTES,
  noteCommitment,
  openingHash,
  ownerCommitment,
  withdrawalChangeInner,
} from '@nightjar/crypto';
import { bytesToHex, fieldToHex, mintToFields, parseAddress } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMITMENT_LAG,
  createGroth16Verifier,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  VAULT_ADDRESS,
} from '../src/index.js';
import { Actor, makeNote, SOL, type TestNote } from './harness.js';

/** The refusal of a proof that does not verify against the request (before landing, -32002). */
const invalidProof = { code: -32002, message: expect.stringMatching(/^InvalidProof/) };

describe('withdraw with real VALID_SPEND v2 proofs', () => {
  let prover: NoteProver;
  let ledger: Ledger;
  let funder: Actor;
  beforeAll(async () => {
    prover = new NoteProver();
    await prover.start();
    const verifier = await createGroth16Verifier({
      valid_spend_v2: await loadVerificationKey('valid_spend_v2'),
    });
    ledger = Ledger.open({ clock: { mode: 'manual' }, verifier, freshSignerWorkBits: 0 });
    Actor.chain = await ledger.getChain();
    const keys = loadOrCreateDevKeys(undefined);
    await ensureDevGenesis(ledger, keys);
    const admin = new Actor(keys.adminSeed);
    await admin.sync(ledger);
    await admin.send(ledger, 'set_tee_keys', { keys: [new Actor().address] });
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized });
    funder = new Actor();
  }, 60_000);
  afterAll(async () => {
    await ledger.close();
    await prover.close();
  });

  /**
   * Deposits a note of `amount` from the funding actor and proves paying `pay` of it to `recipient`;
   * with change, `changeTo` names its shard and memo (the proof binds them).
   */
  async function depositAndProve(
    amount: bigint,
    pay: bigint,
    recipient: string,
    changeTo?: (note: TestNote) => { treeId: number; memo: Uint8Array },
  ) {
    const note = makeNote(SOL, amount);
    await ledger.requestAirdrop({ owner: funder.address, mint: SOL, amount: String(amount) });
    const dep = await funder.send(ledger, 'deposit', {
      tree_id: 0,
      mint: SOL,
      amount: String(amount),
      note_commitment: note.commitment,
      opening_hash: note.openingHash,
    });
    expect(dep.err).toBeNull();
    const count = (await ledger.getTreeRoot({ tree_id: 0 })).leaf_count;
    const mirror = new MerkleTree();
    for (const leaf of (await ledger.getLeaves({ tree_id: 0, from: 0, to: count })).leaves)
      mirror.append(BigInt('0x' + leaf.value));
    const spend = await prover.proveValidSpendV2({
      mint: parseAddress(SOL)!,
      noteAmount: amount,
      spendingKey: note.spendingKey,
      noteInnerHash: note.inner,
      path: mirror.proof(dep.result!.leaf!.leaf_index),
      amount: pay,
      recipient: parseAddress(recipient)!,
      ...(changeTo ? { change: changeTo(note) } : {}),
    });
    const args = {
      tree_id: 0,
      merkle_root: fieldToHex(spend.merkleRoot),
      nullifier: note.nullifier,
      mint: SOL,
      amount: String(pay),
      recipient,
      proof: bytesToHex(spend.proof),
    };
    return { note, spend, args };
  }

  /** The change note's commitment as its owner recomputes it (DESIGN 3: inner Poseidon(9, inner)). */
  function changeOf(note: TestNote, value: bigint, owner = ownerCommitment(note.spendingKey)): string {
    const { mintLo, mintHi } = mintToFields(parseAddress(SOL)!);
    const inner = withdrawalChangeInner(note.inner);
    return fieldToHex(
      noteCommitment({ mintLo, mintHi, amount: value, openingHash: openingHash(owner, inner) }),
    );
  }

  /** The change memo of a withdrawal leaving `value`, sealed to `viewingPublicKey`. */
  const changeMemo = (viewingPublicKey: Uint8Array, note: TestNote, value: bigint) =>
    encryptNoteMemo(viewingPublicKey, {
      mint: parseAddress(SOL)!,
      parentInner: note.inner,
      amounts: [value, 0n, 0n, 0n, 0n, 0n, 0n, 0n],
    });

  it('pays an odd amount and appends the change, signed by a one-time key; the change memo recovers the change', async () => {
    const bob = new Actor();
    // The owner's viewing key: the memo is the one a join-split seals (NOTE_MEMO format).
    const viewing = generateX25519KeyPair();
    let memo!: Uint8Array;
    const { note, spend, args } = await depositAndProve(1234n, 1001n, bob.address, (n) => {
      memo = changeMemo(viewing.publicKey, n, 233n);
      return { treeId: 1, memo };
    });
    const change = changeOf(note, 233n);
    expect(fieldToHex(spend.change.commitment)).toBe(change);
    const withChange = { ...args, change: { tree_id: 1, commitment: change, memo: bytesToHex(memo) } };
    // A change to another owner or of another value does not verify, nor does leaving it out.
    const stranger = ownerCommitment(makeNote(SOL, 1n).spendingKey);
    for (const forged of [
      { ...withChange, change: { ...withChange.change, commitment: changeOf(note, 233n, stranger) } },
      { ...withChange, change: { ...withChange.change, commitment: changeOf(note, 234n) } },
      { ...withChange, amount: '1000', change: { ...withChange.change, commitment: changeOf(note, 234n) } },
      args,
    ])
      await expect(new Actor().send(ledger, 'withdraw', forged)).rejects.toMatchObject(invalidProof);

    const oneTime = new Actor();
    const rec = await oneTime.send(ledger, 'withdraw', withChange);
    expect(rec.err).toBeNull();
    // The block shows the one-time key as signer, never the funding address of the deposit.
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized });
    const block = await ledger.getBlock({ slot: rec.slot });
    const landed = block!.transactions.find((t) => t.signature === rec.signature)!;
    expect(landed.signer).toBe(oneTime.address);
    expect(landed.signer).not.toBe(funder.address);
    expect(await ledger.getBalance({ owner: bob.address, mint: SOL })).toBe('1001');
    const leaf = rec.result!.leaf!;
    expect(
      (await ledger.getLeaves({ tree_id: 1, from: leaf.leaf_index, to: leaf.leaf_index + 1 })).leaves[0]!
        .value,
    ).toBe(change);
    const solvency = (await ledger.getSolvency()).mints.find((m) => m.mint === SOL)!;
    expect(solvency.vault_balance).toBe(solvency.outstanding_note_value);

    // From the stored memo and the keys alone, the owner recomputes the change commitment.
    const stored = (await ledger.getMemosBySignature({ signature: rec.signature })).memos;
    expect(stored).toHaveLength(1);
    const opened = decryptNoteMemo(viewing.privateKey, Buffer.from(stored[0]!.memo, 'hex'));
    expect(opened.amounts[0]).toBe(233n);
    const recovered = changeOf({ ...note, inner: opened.parentInner }, opened.amounts[0]!);
    expect(recovered).toBe(change);
  }, 120_000);

  it('refuses the proof re-signed by another one-time key with a junk memo or on another shard: nothing paid or appended', async () => {
    const bob = new Actor();
    const viewing = generateX25519KeyPair();
    let memo!: Uint8Array;
    const { note, args } = await depositAndProve(900n, 400n, bob.address, (n) => {
      memo = changeMemo(viewing.publicKey, n, 500n);
      return { treeId: 1, memo };
    });
    const honest = {
      ...args,
      change: { tree_id: 1, commitment: changeOf(note, 500n), memo: bytesToHex(memo) },
    };
    const leafCount = async (treeId: number) => (await ledger.getTreeRoot({ tree_id: treeId })).leaf_count;
    const before = {
      bob: await ledger.getBalance({ owner: bob.address, mint: SOL }),
      vault: await ledger.getBalance({ owner: VAULT_ADDRESS, mint: SOL }),
      leaves: [await leafCount(0), await leafCount(1)],
    };
    // What whoever relays the withdrawal could send instead: the same proof, the same payment and
    // change commitment, but a memo the owner's wallet cannot open (a fresh seal of the same
    // contents under another key, or junk) or the change appended to another shard.
    const otherKey = generateX25519KeyPair().publicKey;
    const withProvedMemo = (memo: string, treeId = 1) => ({
      ...honest,
      change: { ...honest.change, memo, tree_id: treeId },
    });
    for (const forged of [
      withProvedMemo('00'.repeat(NOTE_MEMO_BYTES)),
      withProvedMemo(bytesToHex(changeMemo(otherKey, note, 500n))),
      withProvedMemo(honest.change.memo, 0),
    ])
      await expect(new Actor().send(ledger, 'withdraw', forged)).rejects.toMatchObject(invalidProof);
    expect(await ledger.getBalance({ owner: bob.address, mint: SOL })).toBe(before.bob);
    expect(await ledger.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe(before.vault);
    expect([await leafCount(0), await leafCount(1)]).toEqual(before.leaves);
    expect(await ledger.getNoteStatus({ nullifier: note.nullifier })).not.toEqual({ state: 'spent' });

    // The original, with the memo and shard the proof binds, still lands.
    const rec = await new Actor().send(ledger, 'withdraw', honest);
    expect(rec.err).toBeNull();
    expect(rec.result?.leaf?.tree_id).toBe(1);
    expect(await ledger.getBalance({ owner: bob.address, mint: SOL })).toBe('400');
    const stored = (await ledger.getMemosBySignature({ signature: rec.signature })).memos;
    expect(stored.map((m) => m.memo)).toEqual([honest.change.memo]);
    expect(decryptNoteMemo(viewing.privateKey, Buffer.from(stored[0]!.memo, 'hex')).amounts[0]).toBe(500n);
  }, 120_000);

  it('pays a whole note with no change; a replayed proof to another recipient is refused', async () => {
    const bob = new Actor();
    const { spend, args } = await depositAndProve(500n, 500n, bob.address);
    expect(spend.change.commitment).toBe(0n);
    const vaultBefore = BigInt(await ledger.getBalance({ owner: VAULT_ADDRESS, mint: SOL }));
    // The proof binds the recipient and the amount; a change it did not prove is refused too.
    const mallory = new Actor();
    for (const forged of [
      { ...args, recipient: mallory.address },
      { ...args, amount: '499' },
      {
        ...args,
        change: { tree_id: 0, commitment: makeNote(SOL, 1n).commitment, memo: '00'.repeat(NOTE_MEMO_BYTES) },
      },
    ])
      await expect(mallory.send(ledger, 'withdraw', forged)).rejects.toMatchObject(invalidProof);
    const rec = await new Actor().send(ledger, 'withdraw', args);
    expect(rec.err).toBeNull();
    expect(rec.result).toBeNull();
    expect(await ledger.getBalance({ owner: bob.address, mint: SOL })).toBe('500');
    expect(BigInt(await ledger.getBalance({ owner: VAULT_ADDRESS, mint: SOL }))).toBe(vaultBefore - 500n);
    expect((await ledger.getMemosBySignature({ signature: rec.signature })).memos).toEqual([]);
    // Replayed once spent: refused again, to anyone.
    expect((await mallory.send(ledger, 'withdraw', args)).err?.code).toBe('NoteSpent');
    const solvency = (await ledger.getSolvency()).mints.find((m) => m.mint === SOL)!;
    expect(solvency.vault_balance).toBe(solvency.outstanding_note_value);
  }, 120_000);
});
