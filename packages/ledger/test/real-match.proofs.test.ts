/**
 * Settlement v2 with REAL proofs (issue 29): an in-process ledger with the real Groth16 verifier
 * and the committed dev keys of VALID_INPUT v2, VALID_LOCK and VALID_MATCH v2.
 * - The review's theft: the settlement key with a victim's note opening cannot lock the note
 *   without the victim's own VALID_INPUT proof; with the victim's real lock for an ask at limit L,
 *   a match at price 0 against a 1-unit note cannot be proved for the victim's order, and one
 *   proved for forged terms is refused; a lock with another order's or another note's proof is
 *   refused.
 * - An honest partial fill: locks against a root 500 appends old land, the settlement survives 500
 *   more appends, a replay with other memos, output shards or outputs (the issue-18 rogue-key
 *   forgeries) is refused, a lock swapped between admission and landing fails the verified proof;
 *   the change notes are locked with VALID_LOCK and settled again, once too late
 *   (SettlementExpired).
 */
import {
  loadVerificationKey,
  NoteProver,
  SettlementWitnessError,
  type LockProofResult,
  type MatchOrderTerms,
  type ValidMatchV2Params,
} from '@nightjar/circuits';
import {
  FILL_MEMO_BYTES,
  marketToFields,
  MerkleTree,
  noteCommitment,
  openingHash,
  ownerCommitment,
  randomFieldElement,
  type OrderSide,
  type OrderTerms,
} from '@nightjar/crypto';
import { bytesToHex, fieldToHex, mintToFields, parseAddress } from '@nightjar/protocol';
import { randomBytes } from 'node:crypto';
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
const field = (h: string) => BigInt('0x' + h);
const MARKET = marketToFields(parseAddress(SOL_USDC)!);
const EXPIRY = 1_000_000n;
const PROOF_TIMEOUT_MS = 600_000;

describe('settlement v2 with real proofs', () => {
  let prover: NoteProver;
  let ledger: Ledger;
  let tee: Actor;
  let verifier: Awaited<ReturnType<typeof createGroth16Verifier>>;
  let chain: Awaited<ReturnType<Ledger['getChain']>>;
  let market: Awaited<ReturnType<Ledger['getMarkets']>>[number];
  let feeOwner: bigint;
  const filler = new Actor();

  beforeAll(async () => {
    prover = new NoteProver();
    await prover.start();
    verifier = await createGroth16Verifier({
      valid_spend_v2: await loadVerificationKey('valid_spend_v2'),
      valid_input_v2: await loadVerificationKey('valid_input_v2'),
      valid_lock: await loadVerificationKey('valid_lock'),
      valid_match_v2: await loadVerificationKey('valid_match_v2'),
    });
    ledger = Ledger.open({ clock: { mode: 'manual' }, verifier, freshSignerWorkBits: 0 });
    chain = await ledger.getChain();
    Actor.chain = chain;
    const keys = loadOrCreateDevKeys(undefined);
    await ensureDevGenesis(ledger, keys);
    const admin = new Actor(keys.adminSeed);
    await admin.sync(ledger);
    tee = new Actor();
    await admin.send(ledger, 'set_tee_keys', { keys: [tee.address] });
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized });
    market = (await ledger.getMarkets()).find((m) => m.market_id === SOL_USDC)!;
    feeOwner = field((await ledger.getVault()).fee_owner_commitment);
    await ledger.requestAirdrop({ owner: filler.address, mint: SOL, amount: '1000000000' });
  }, PROOF_TIMEOUT_MS);
  afterAll(async () => {
    await prover?.close();
    await ledger?.close();
    await verifier?.close();
  });

  async function deposit(note: TestNote): Promise<number> {
    const owner = new Actor();
    await ledger.requestAirdrop({ owner: owner.address, mint: note.mint, amount: note.amount.toString() });
    const rec = await owner.send(ledger, 'deposit', {
      tree_id: note.treeId,
      mint: note.mint,
      amount: note.amount.toString(),
      note_commitment: note.commitment,
      opening_hash: note.openingHash,
    });
    expect(rec.err).toBeNull();
    return (note.leafIndex = rec.result!.leaf!.leaf_index);
  }

  /** `count` one-leaf appends (deposits of 1 unit) into `treeId`, one step each. */
  async function appends(treeId: number, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const n = makeNote(SOL, 1n, treeId);
      const rec = await filler.send(ledger, 'deposit', {
        tree_id: treeId,
        mint: SOL,
        amount: '1',
        note_commitment: n.commitment,
        opening_hash: n.openingHash,
      });
      expect(rec.err).toBeNull();
    }
  }

  /** The shard as the chain holds it now. */
  async function mirror(treeId: number): Promise<MerkleTree> {
    const tree = new MerkleTree();
    for (;;) {
      const { leaves } = await ledger.getLeaves({ tree_id: treeId, from: tree.size, to: tree.size + 2048 });
      if (leaves.length === 0) return tree;
      for (const l of leaves) tree.append(field(l.value));
    }
  }

  const terms = (side: OrderSide, o: MatchOrderTerms): OrderTerms => ({
    ...o,
    side,
    marketLo: MARKET.marketLo,
    marketHi: MARKET.marketHi,
  });

  /** The owner's VALID_INPUT v2 for `note` and one order, under the shard's current root. */
  async function inputProof(
    note: TestNote,
    side: OrderSide,
    order: MatchOrderTerms,
  ): Promise<LockProofResult> {
    const tree = await mirror(note.treeId);
    return prover.proveValidInputV2({
      mint: parseAddress(note.mint)!,
      amount: note.amount,
      spendingKey: note.spendingKey,
      noteInnerHash: note.inner,
      path: { siblings: tree.proof(note.leafIndex!).siblings, leafIndex: note.leafIndex! },
      merkleRoot: tree.root,
      order: terms(side, order),
    });
  }

  const lockEntry = (treeId: number, p: LockProofResult, untilSlot: number) => ({
    tree_id: treeId,
    merkle_root: hex(p.publicInputs[1]),
    nullifier: hex(p.publicInputs[2]),
    use_tag: hex(p.publicInputs[0]),
    until_slot: String(untilSlot),
    proof: bytesToHex(p.proof),
  });

  /** lock_note by the TEE key: the landed record, or the refusal before landing. */
  async function lock(entry: Record<string, unknown>): Promise<TransactionRecord | { refused: string }> {
    try {
      return await tee.send(ledger, 'lock_note', entry);
    } catch (err) {
      await tee.sync(ledger);
      return { refused: (err as Error).message };
    }
  }

  const setting = (settleBySlot: bigint) => ({
    marketId: parseAddress(SOL_USDC)!,
    baseMint: parseAddress(SOL)!,
    quoteMint: parseAddress(USDC)!,
    priceScale: BigInt(market.price_scale),
    feeBps: BigInt(market.fee_bps),
    feeOwnerCommitment: feeOwner,
    settleBySlot,
  });

  const memo = () => Uint8Array.from(randomBytes(FILL_MEMO_BYTES));

  /** settle_batch arguments of one proved match. */
  function matchArgs(
    proved: Awaited<ReturnType<NoteProver['proveValidMatchV2']>>,
    nullifiers: [string, string],
    params: ValidMatchV2Params,
  ) {
    return {
      match_idx: 0,
      inputs: nullifiers.map((nullifier) => ({ nullifier })),
      outputs: proved.outputs.map((o, k) => ({
        tree_id: params.memos.outputShards[k]!,
        commitment: hex(o.commitment),
      })),
      memos: [bytesToHex(params.memos.bid), bytesToHex(params.memos.ask)],
      proof: bytesToHex(proved.proof),
    };
  }

  const settle = (match: unknown, settleBySlot: bigint): Promise<TransactionRecord> =>
    tee.send(ledger, 'settle_batch', {
      batch_id: '1',
      market_id: SOL_USDC,
      settle_by_slot: settleBySlot.toString(),
      matches: [match],
    });

  /** Everything an observer could compare before and after a refused settlement or lock. */
  async function chainState(nullifiers: string[]) {
    return {
      roots: await Promise.all([0, 1, 2, 3].map((t) => ledger.getTreeRoot({ tree_id: t }))),
      notes: await ledger.getNoteStatuses({ nullifiers }),
      memos: await ledger.getMemos({ from: 0, to: 1000 }),
      solvency: (await ledger.getSolvency()).mints,
    };
  }

  it(
    'the review’s theft: the settlement key and a victim’s opening lock nothing without the victim’s proof, and no match at price 0 against a 1-unit note settles the victim’s real lock',
    async () => {
      const L = 150_000_000n; // 150 USDC per SOL
      const victim = makeNote(SOL, 10_000_000_000n); // 10 SOL
      const victimOrder: MatchOrderTerms = {
        amount: victim.amount,
        priceLimit: L,
        minFillSize: 1_000_000n,
        expirySlot: EXPIRY,
        orderId: 0x11n,
      };
      await deposit(victim);
      const attackerNote = makeNote(USDC, 1n);
      await deposit(attackerNote);
      const slot = await ledger.getSlot();
      const root = await mirror(0);

      // 1. Without the victim's proof. A junk proof, the attacker's own VALID_INPUT v2 (for his
      // note) under the victim's nullifier, and a VALID_LOCK, which the attacker cannot even
      // make from the victim's opening (a deposit's inner is no change note's).
      const attackerOrder: MatchOrderTerms = { ...victimOrder, orderId: 0x22n };
      const own = await inputProof(attackerNote, 0, attackerOrder);
      const victimNullifier = victim.nullifier;
      const victimTag = hex(randomFieldElement());
      const forged = [
        { ...lockEntry(0, own, slot + 100), nullifier: victimNullifier },
        { ...lockEntry(0, own, slot + 100), nullifier: victimNullifier, use_tag: victimTag },
        { ...lockEntry(0, own, slot + 100), nullifier: victimNullifier, proof: 'ab'.repeat(256) },
      ];
      for (const entry of forged)
        expect(await lock(entry)).toMatchObject({ refused: expect.stringMatching(/InvalidProof/) });
      await expect(
        prover.proveValidLock({
          mint: parseAddress(SOL)!,
          amount: victim.amount,
          ownerCommitment: ownerCommitment(victim.spendingKey),
          parentInner: victim.inner,
          remainder: terms(1, victimOrder),
          path: { siblings: root.proof(victim.leafIndex!).siblings, leafIndex: victim.leafIndex! },
          merkleRoot: root.root,
        }),
      ).rejects.toBeInstanceOf(SettlementWitnessError);
      expect(await ledger.getNoteStatus({ nullifier: victimNullifier })).toEqual({ state: 'free' });

      // 2. The victim's real lock, for an ask at limit L (its intake proof, as the engine holds it).
      const victimProof = await inputProof(victim, 1, victimOrder);
      // The same proof under another order's use tag, or another note's nullifier: refused.
      const otherOrder = await inputProof(victim, 1, { ...victimOrder, priceLimit: 1n, orderId: 0x33n });
      expect(otherOrder.publicInputs[0]).not.toBe(victimProof.publicInputs[0]);
      for (const entry of [
        { ...lockEntry(0, victimProof, slot + 100), use_tag: hex(otherOrder.publicInputs[0]) },
        { ...lockEntry(0, victimProof, slot + 100), nullifier: attackerNote.nullifier },
      ])
        expect(await lock(entry)).toMatchObject({ refused: expect.stringMatching(/InvalidProof/) });
      expect((await lock(lockEntry(0, victimProof, slot + 100))) as TransactionRecord).toMatchObject({
        err: null,
      });
      expect((await lock(lockEntry(0, own, slot + 100))) as TransactionRecord).toMatchObject({ err: null });

      // 3. Price 0 against the attacker's 1-unit note: no witness exists for the victim's order.
      const settleBy = BigInt(slot + 50);
      const memos = { bid: memo(), ask: memo(), outputShards: [0, 0, 0, 0, 0, 0] };
      const party = (n: TestNote, order: MatchOrderTerms, useTag?: bigint) => ({
        amount: n.amount,
        ownerCommitment: ownerCommitment(n.spendingKey),
        noteInnerHash: n.inner,
        order,
        ...(useTag === undefined ? {} : { useTag }),
      });
      const theft: ValidMatchV2Params = {
        ...setting(settleBy),
        quantity: victim.amount - 20_000_000n,
        price: 0n,
        bid: party(attackerNote, attackerOrder, own.publicInputs[0]),
        ask: party(victim, victimOrder, victimProof.publicInputs[0]),
        memos,
      };
      await expect(prover.proveValidMatchV2(theft)).rejects.toMatchObject({ code: 'price_outside_limit' });
      await expect(prover.proveValidMatchV2({ ...theft, price: L })).rejects.toMatchObject({
        code: 'insufficient_note',
      });
      // Claiming the victim's order had limit 0 proves a match for another use tag, which the
      // ledger never takes from the transaction: it reads the lock's, and the proof fails.
      const lie = await prover.proveValidMatchV2({
        ...theft,
        ask: party(victim, { ...victimOrder, priceLimit: 0n }),
      });
      expect(lie.publicSignals[1]).not.toBe(victimProof.publicInputs[0]);
      // A sound proof of its own (lying) statement: only the lock's tag makes it fail.
      expect(await verifier.verify('valid_match_v2', lie.proof, lie.publicSignals)).toBe(true);
      const watched = [victimNullifier, attackerNote.nullifier];
      const before = await chainState(watched);
      const rec = await settle(matchArgs(lie, [attackerNote.nullifier, victimNullifier], theft), settleBy);
      expect(rec.err).toBeNull();
      expect(rec.result?.matches?.[0]?.err?.code).toBe('InvalidProof');
      expect(await chainState(watched)).toEqual(before);
      expect(before.notes.map((n) => n.state)).toEqual(['locked', 'locked']);
    },
    PROOF_TIMEOUT_MS,
  );

  it(
    'an honest partial fill: old roots, 500 appends, replays refused, a swapped lock refused, the change notes locked with VALID_LOCK and settled again, once too late',
    async () => {
      const price = 150_000_000n;
      const bid = makeNote(USDC, 600_000_000n, 1);
      const ask = makeNote(SOL, 3_000_000_000n, 2);
      const bidOrder: MatchOrderTerms = {
        amount: 3_000_000_000n,
        priceLimit: 160_000_000n,
        minFillSize: 1_000_000n,
        expirySlot: EXPIRY,
        orderId: 0xb1dn,
      };
      const askOrder: MatchOrderTerms = { ...bidOrder, priceLimit: 140_000_000n, orderId: 0xa5cn };
      await deposit(bid);
      await deposit(ask);
      const bidProof = await inputProof(bid, 0, bidOrder);
      const askProof = await inputProof(ask, 1, askOrder);
      // 500 appends in each input's shard before the locks: their proofs' roots are that old.
      await appends(1, 500);
      await appends(2, 500);
      // And older than intake's window by age (181 slots): only the ledger's every-root history has it.
      await ledger.advanceSlots({ slots: 200 });
      expect((await ledger.getRootWindow({ tree_id: 1 })).roots).not.toContain(hex(bidProof.publicInputs[1]));
      const slot = await ledger.getSlot();
      for (const [t, p] of [
        [1, bidProof],
        [2, askProof],
      ] as const)
        expect(((await lock(lockEntry(t, p, slot + 400))) as TransactionRecord).err).toBeNull();
      // 500 more appends between lock and settle.
      await appends(1, 500);
      await appends(2, 500);

      const settleBy = BigInt(slot + 300);
      const params: ValidMatchV2Params = {
        ...setting(settleBy),
        quantity: 2_000_000_000n,
        price,
        bid: {
          amount: bid.amount,
          ownerCommitment: ownerCommitment(bid.spendingKey),
          noteInnerHash: bid.inner,
          order: bidOrder,
          useTag: bidProof.publicInputs[0],
        },
        ask: {
          amount: ask.amount,
          ownerCommitment: ownerCommitment(ask.spendingKey),
          noteInnerHash: ask.inner,
          order: askOrder,
          useTag: askProof.publicInputs[0],
        },
        memos: { bid: memo(), ask: memo(), outputShards: [0, 1, 2, 3, 1, 2] },
      };
      const proved = await prover.proveValidMatchV2(params);
      const honest = matchArgs(proved, [bid.nullifier, ask.nullifier], params);

      // Replays of the proof with anything else, and the issue-18 rogue-key forgeries: refused.
      const commit = (mint: string, amount: bigint, owner: bigint, inner: bigint) => {
        const { mintLo, mintHi } = mintToFields(parseAddress(mint)!);
        return hex(noteCommitment({ mintLo, mintHi, amount, openingHash: openingHash(owner, inner) }));
      };
      const out = proved.outputs;
      const withOutput = (k: number, commitment: string) => ({
        ...honest,
        outputs: honest.outputs.map((o, i) => (i === k ? { ...o, commitment } : o)),
      });
      const attacker = ownerCommitment(randomFieldElement());
      const askOwner = ownerCommitment(ask.spendingKey);
      const forgeries: [string, unknown, bigint?][] = [
        ['other memos', { ...honest, memos: [bytesToHex(memo()), honest.memos[1]] }],
        ['memos swapped', { ...honest, memos: [honest.memos[1], honest.memos[0]] }],
        ['other output shards', { ...honest, outputs: honest.outputs.map((o) => ({ ...o, tree_id: 0 })) }],
        [
          'outputs reordered',
          { ...honest, outputs: [honest.outputs[1], honest.outputs[0], ...honest.outputs.slice(2)] },
        ],
        ['output to a foreign owner', withOutput(0, commit(SOL, out[0]!.amount, attacker, out[0]!.inner))],
        ['more value out than in', withOutput(3, commit(USDC, out[3]!.amount + 1n, askOwner, out[3]!.inner))],
        [
          'fee note larger than the fee',
          withOutput(2, commit(USDC, out[2]!.amount * 2n, feeOwner, out[2]!.inner)),
        ],
        ['another deadline', honest, settleBy - 1n],
      ];
      const watched = [bid.nullifier, ask.nullifier];
      const before = await chainState(watched);
      for (const [what, forged, by] of forgeries) {
        const rec = await settle(forged, by ?? settleBy);
        expect(rec.err, what).toBeNull();
        expect(rec.result?.matches?.[0]?.err?.code, what).toBe('InvalidProof');
        expect(await chainState(watched), what).toEqual(before);
      }

      // The ask's lock swapped between admission and landing: released and locked again for
      // another order (a real proof of its owner). The verified proof does not settle.
      const otherOrder = await inputProof(ask, 1, {
        ...askOrder,
        priceLimit: 100_000_000n,
        orderId: 0xcafen,
      });
      await tee.sync(ledger);
      const next = BigInt((await ledger.getNonce({ signer: tee.address })) ?? '0');
      await ledger.setFaults({ latencySlots: 2 });
      const delayed = tee.sign(
        {
          name: 'settle_batch',
          args: {
            batch_id: '2',
            market_id: SOL_USDC,
            settle_by_slot: settleBy.toString(),
            matches: [honest],
          },
        },
        next + 10n,
        chain,
      );
      await ledger.sendTransaction({ transaction: delayed });
      await ledger.setFaults({ latencySlots: 0 });
      const now = await ledger.getSlot();
      for (const [k, instruction] of [
        { name: 'release_lock', args: { nullifier: ask.nullifier } },
        { name: 'lock_note', args: lockEntry(2, otherOrder, now + 400) },
      ].entries())
        await ledger.sendTransaction({ transaction: tee.sign(instruction, next + 1n + BigInt(k), chain) });
      await ledger.advanceSlots({ slots: 2 });
      const swapped = await ledger.getTransaction({ signature: delayed.signature });
      expect(swapped?.result?.matches?.[0]?.err?.code).toBe('InvalidProof');
      await tee.sync(ledger);
      // Back to the lock the proof was made for (its proof still good: any root of the shard is).
      expect((await tee.send(ledger, 'release_lock', { nullifier: ask.nullifier })).err).toBeNull();
      expect(((await lock(lockEntry(2, askProof, now + 400))) as TransactionRecord).err).toBeNull();

      // The honest settlement lands: inputs spent, all six outputs appended in their shards.
      const landed = await settle(honest, settleBy);
      expect(landed.result?.matches?.[0]?.ok).toBe(true);
      const leaves = landed.result!.matches![0]!.output_leaves!;
      expect(leaves.map((l) => l.tree_id)).toEqual([0, 1, 2, 3, 1, 2]);
      expect(await ledger.getNoteStatuses({ nullifiers: watched })).toEqual([
        { state: 'spent' },
        { state: 'spent' },
      ]);
      expect((await ledger.getSolvency()).mints).toEqual(before.solvency);

      // The partial fill's second match: both change notes, locked by the engine with VALID_LOCK
      // for their orders' remainders (no relock happened: they were free until now).
      const changeLock = async (side: 'bid' | 'ask', slotIdx: number, owner: TestNote) => {
        const o = out[slotIdx]!;
        const treeId = params.memos.outputShards[slotIdx]!;
        expect(await ledger.getNoteStatus({ nullifier: hex(o.nullifier) })).toEqual({ state: 'free' });
        const tree = await mirror(treeId);
        const leaf = leaves[slotIdx]!.leaf_index;
        const p = await prover.proveValidLock({
          mint: parseAddress(side === 'bid' ? USDC : SOL)!,
          amount: o.amount,
          ownerCommitment: ownerCommitment(owner.spendingKey),
          parentInner: owner.inner,
          remainder: proved[side].remainder,
          path: { siblings: tree.proof(leaf).siblings, leafIndex: leaf },
          merkleRoot: tree.root,
        });
        return { p, treeId, o };
      };
      const bidChange = await changeLock('bid', 1, bid);
      const askChange = await changeLock('ask', 4, ask);
      const slot2 = await ledger.getSlot();
      const locked = await tee.send(ledger, 'lock_notes', {
        locks: [bidChange, askChange].map((c) => lockEntry(c.treeId, c.p, slot2 + 400)),
      });
      expect(locked.result?.locks?.map((l) => l.ok)).toEqual([true, true]);
      const remainderOf = (t: OrderTerms): MatchOrderTerms => ({
        amount: t.amount,
        priceLimit: t.priceLimit,
        minFillSize: t.minFillSize,
        expirySlot: t.expirySlot,
        orderId: t.orderId,
      });
      const second = (settleBySlot: bigint): ValidMatchV2Params => ({
        ...setting(settleBySlot),
        quantity: 900_000_000n,
        price,
        bid: {
          amount: bidChange.o.amount,
          ownerCommitment: ownerCommitment(bid.spendingKey),
          noteInnerHash: bidChange.o.inner,
          order: remainderOf(proved.bid.remainder),
          useTag: bidChange.p.publicInputs[0],
        },
        ask: {
          amount: askChange.o.amount,
          ownerCommitment: ownerCommitment(ask.spendingKey),
          noteInnerHash: askChange.o.inner,
          order: remainderOf(proved.ask.remainder),
          useTag: askChange.p.publicInputs[0],
        },
        memos: { bid: memo(), ask: memo(), outputShards: [3, 3, 3, 3, 3, 3] },
      });
      const changeNullifiers: [string, string] = [hex(bidChange.o.nullifier), hex(askChange.o.nullifier)];
      // Proved for a deadline two slots ahead, it lands three slots later: SettlementExpired.
      const lateBy = BigInt(slot2 + 2);
      const lateParams = second(lateBy);
      const late = await prover.proveValidMatchV2(lateParams);
      await ledger.setFaults({ latencySlots: 3 });
      const lateTx = tee.sign(
        {
          name: 'settle_batch',
          args: {
            batch_id: '3',
            market_id: SOL_USDC,
            settle_by_slot: lateBy.toString(),
            matches: [matchArgs(late, changeNullifiers, lateParams)],
          },
        },
        undefined,
        chain,
      );
      await ledger.sendTransaction({ transaction: lateTx });
      await ledger.setFaults({ latencySlots: 0 });
      await ledger.advanceSlots({ slots: 3 });
      expect((await ledger.getTransaction({ signature: lateTx.signature }))?.err?.code).toBe(
        'SettlementExpired',
      );
      // In time, it lands.
      const inTimeBy = BigInt((await ledger.getSlot()) + 50);
      const inTime = second(inTimeBy);
      const provedAgain = await prover.proveValidMatchV2(inTime);
      const rec = await settle(matchArgs(provedAgain, changeNullifiers, inTime), inTimeBy);
      expect(rec.result?.matches?.[0]?.ok).toBe(true);
      expect(await ledger.getNoteStatuses({ nullifiers: changeNullifiers })).toEqual([
        { state: 'spent' },
        { state: 'spent' },
      ]);
    },
    PROOF_TIMEOUT_MS,
  );
});
