/**
 * Settlement with REAL VALID_MATCH proofs (issue 18, item 4): an honest match lands, and a holder
 * of the registered settlement key who forges a settlement's content is refused with nothing
 * changed. The attacks reuse the one honest proof with the forged values put in the arguments,
 * which is all such a key holder can do: the circuit's own negative tests show no proof exists
 * for the forged statements. Few proofs: one VALID_MATCH and one VALID_SPEND.
 */
import { loadVerificationKey, NoteProver, type ValidMatchParams } from '@nightjar/circuits';
import {
  MerkleTree,
  noteCommitment,
  openingHash,
  ownerCommitment,
  randomFieldElement,
} from '@nightjar/crypto';
import { bytesToHex, fieldToHex, mintToFields, parseAddress } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMITMENT_LAG,
  createGroth16Verifier,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  type TransactionRecord,
} from '../src/index.js';
import { Actor, makeNote, SOL, SOL_USDC, USDC, type TestNote } from './harness.js';

const hex = (x: bigint) => fieldToHex(x);

describe('settle_batch with real VALID_MATCH proofs', () => {
  let prover: NoteProver;
  let ledger: Ledger;
  let tee: Actor;
  beforeAll(async () => {
    prover = new NoteProver();
    await prover.start();
    const verifier = await createGroth16Verifier({
      valid_spend: await loadVerificationKey('valid_spend'),
      valid_match: await loadVerificationKey('valid_match'),
    });
    ledger = Ledger.open({ clock: { mode: 'manual' }, verifier, freshSignerWorkBits: 0 });
    Actor.chain = await ledger.getChain();
    const keys = loadOrCreateDevKeys(undefined);
    await ensureDevGenesis(ledger, keys);
    const admin = new Actor(keys.adminSeed);
    await admin.sync(ledger);
    tee = new Actor();
    await admin.send(ledger, 'set_tee_keys', { keys: [tee.address] });
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized });
  });
  afterAll(async () => {
    await prover?.close();
    await ledger?.close();
  });

  async function deposit(note: TestNote): Promise<number> {
    const owner = new Actor();
    await ledger.requestAirdrop({ owner: owner.address, mint: note.mint, amount: note.amount.toString() });
    const rec = await owner.send(ledger, 'deposit', {
      tree_id: 0,
      mint: note.mint,
      amount: note.amount.toString(),
      note_commitment: note.commitment,
      opening_hash: note.openingHash,
    });
    expect(rec.err).toBeNull();
    return rec.result!.leaf!.leaf_index;
  }

  /** Everything an observer could compare before and after a refused settlement. */
  async function chainState(nullifiers: string[]) {
    return {
      root: await ledger.getTreeRoot({ tree_id: 0 }),
      notes: await ledger.getNoteStatuses({ nullifiers }),
      memos: await ledger.getMemos({ from: 0, to: 100 }),
      solvency: (await ledger.getSolvency()).mints,
    };
  }

  it('an honest match lands; a rogue settlement key’s forgeries are each refused and change nothing', async () => {
    const market = (await ledger.getMarkets()).find((m) => m.market_id === SOL_USDC)!;
    const vault = await ledger.getVault();
    const priceScale = BigInt(market.price_scale);
    // The bid pays USDC for 2 SOL at 150 USDC/SOL (in atomic units), the ask sells 3 SOL.
    const quantity = 2n * priceScale;
    const price = 150_000_000n;
    const bid = makeNote(USDC, 400_000_000n);
    const ask = makeNote(SOL, 3n * priceScale);
    const victim = makeNote(USDC, 5n);
    const bidLeaf = await deposit(bid);
    const askLeaf = await deposit(ask);
    await deposit(victim);
    const slot = await ledger.getSlot();
    for (const n of [bid, ask])
      expect(
        (await tee.send(ledger, 'lock_note', { nullifier: n.nullifier, until_slot: String(slot + 500) })).err,
      ).toBeNull();

    const mirror = new MerkleTree();
    for (const leaf of (await ledger.getLeaves({ tree_id: 0, from: 0, to: 100 })).leaves)
      mirror.append(BigInt('0x' + leaf.value));
    const root = mirror.root;
    expect(hex(root)).toBe((await ledger.getTreeRoot({ tree_id: 0 })).merkle_root);
    const party = (n: TestNote, leafIndex: number, relock: boolean) => ({
      amount: n.amount,
      ownerCommitment: ownerCommitment(n.spendingKey),
      noteInnerHash: n.inner,
      merkleRoot: root,
      path: { siblings: mirror.proof(leafIndex).siblings, leafIndex },
      relock,
    });
    const params: ValidMatchParams = {
      baseMint: parseAddress(SOL)!,
      quoteMint: parseAddress(USDC)!,
      priceScale,
      feeBps: BigInt(market.fee_bps),
      feeOwnerCommitment: BigInt('0x' + vault.fee_owner_commitment),
      quantity,
      price,
      bid: party(bid, bidLeaf, true),
      ask: party(ask, askLeaf, false),
    };
    const t0 = performance.now();
    const proved = await prover.proveValidMatch(params);
    const proveMs = performance.now() - t0;
    const change = proved.outputs.find((o) => o.slot === 1)!;
    const honest = {
      match_idx: 0,
      inputs: [
        { tree_id: 0, merkle_root: hex(root), nullifier: bid.nullifier },
        { tree_id: 0, merkle_root: hex(root), nullifier: ask.nullifier },
      ],
      outputs: proved.outputs.map((o) => ({
        slot: o.slot,
        tree_id: 0,
        commitment: hex(o.commitment),
        ...(o.slot === 1
          ? { relock: { nullifier: hex(change.nullifier), until_slot: String(slot + 400) } }
          : {}),
      })),
      memos: ['aa', 'bb'],
      proof: bytesToHex(proved.proof),
    };
    const settle = (match: typeof honest): Promise<TransactionRecord> =>
      tee.send(ledger, 'settle_batch', { batch_id: '1', market_id: SOL_USDC, matches: [match] });
    /** The honest match with output `slot`'s commitment replaced. */
    const withOutput = (slotIdx: number, commitment: bigint) => ({
      ...honest,
      outputs: honest.outputs.map((o) => (o.slot === slotIdx ? { ...o, commitment: hex(commitment) } : o)),
    });
    const outputOf = (slotIdx: number) => proved.outputs.find((o) => o.slot === slotIdx)!;
    const commit = (mint: string, amount: bigint, owner: bigint, inner: bigint) => {
      const { mintLo, mintHi } = mintToFields(parseAddress(mint)!);
      return noteCommitment({ mintLo, mintHi, amount, openingHash: openingHash(owner, inner) });
    };
    const bidOwner = ownerCommitment(bid.spendingKey);
    const askOwner = ownerCommitment(ask.spendingKey);
    const attacker = ownerCommitment(randomFieldElement());
    const feeOwner = BigInt('0x' + vault.fee_owner_commitment);

    // (e) needs a lock on a nullifier of no note in the tree: the TEE may lock any nullifier.
    const madeUp = hex(randomFieldElement());
    expect(
      (await tee.send(ledger, 'lock_note', { nullifier: madeUp, until_slot: String(slot + 500) })).err,
    ).toBeNull();

    const watched = [bid.nullifier, ask.nullifier, victim.nullifier, hex(change.nullifier), madeUp];
    const before = await chainState(watched);
    const attacks: [string, typeof honest][] = [
      // (a) the change note relocked under a victim's nullifier: the double spend of issue 18.
      [
        'relock under a victim’s nullifier',
        {
          ...honest,
          outputs: honest.outputs.map((o) =>
            o.slot === 1
              ? { ...o, relock: { nullifier: victim.nullifier, until_slot: String(slot + 400) } }
              : o,
          ),
        },
      ],
      // (b) the bid's trade-out paid to another owner.
      [
        'output to a foreign owner',
        withOutput(0, commit(SOL, outputOf(0).amount, attacker, outputOf(0).inner)),
      ],
      // (c) more value out than in: the ask's trade-out for more quote than the trade pays.
      [
        'more value out than in',
        withOutput(3, commit(USDC, outputOf(3).amount + 1n, askOwner, outputOf(3).inner)),
      ],
      // (d) a fee note larger than the fee.
      [
        'fee note larger than the fee',
        withOutput(2, commit(USDC, outputOf(2).amount * 2n, feeOwner, outputOf(2).inner)),
      ],
      // (e) consuming a nullifier of no note in the tree, with the honest outputs.
      [
        'nullifier of a note not in the tree',
        { ...honest, inputs: [{ ...honest.inputs[0]!, nullifier: madeUp }, honest.inputs[1]!] },
      ],
    ];
    for (const [what, forged] of attacks) {
      const rec = await settle(forged);
      expect(rec.err, what).toBeNull();
      expect(rec.result?.matches?.[0]?.err?.code, what).toBe('InvalidProof');
      expect(await chainState(watched), what).toEqual(before);
    }
    expect(bidOwner).not.toBe(attacker);

    // The honest settlement lands: inputs spent, outputs appended, the change relocked.
    const landed = await settle(honest);
    expect(landed.result?.matches?.[0]).toMatchObject({ ok: true });
    expect(
      await ledger.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier, victim.nullifier] }),
    ).toEqual([{ state: 'spent' }, { state: 'spent' }, { state: 'free' }]);
    expect(await ledger.getNoteStatus({ nullifier: hex(change.nullifier) })).toEqual({
      state: 'locked',
      locked_until_slot: slot + 400,
    });
    const leaves = (await ledger.getLeaves({ tree_id: 0, from: 3, to: 100 })).leaves.map((l) => l.value);
    expect(leaves).toEqual(proved.outputs.map((o) => hex(o.commitment)));
    // Value moved only inside the proof: the vault and the note side still agree, unchanged.
    expect((await ledger.getSolvency()).mints).toEqual(before.solvency);

    // The bid's trade-out (2 SOL) is withdrawn by its owner with a real VALID_SPEND proof.
    for (const leaf of leaves) mirror.append(BigInt('0x' + leaf));
    const out = outputOf(0);
    const recipient = new Actor();
    const spend = await prover.proveValidSpend({
      note: {
        mint: parseAddress(SOL)!,
        amount: out.amount,
        spendingKey: bid.spendingKey,
        noteInnerHash: out.inner,
      },
      path: mirror.proof(3),
      recipient: parseAddress(recipient.address)!,
    });
    const withdraw = await recipient.send(ledger, 'withdraw', {
      tree_id: 0,
      merkle_root: hex(mirror.root),
      nullifier: hex(spend.publicInputs[1]!),
      mint: SOL,
      amount: out.amount.toString(),
      recipient: recipient.address,
      proof: bytesToHex(spend.proof),
    });
    expect(withdraw.err).toBeNull();
    expect(await ledger.getBalance({ owner: recipient.address, mint: SOL })).toBe(quantity.toString());
    console.log(`VALID_MATCH proved in ${proveMs.toFixed(0)} ms`);
  });
});
