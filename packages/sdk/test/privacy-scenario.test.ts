/**
 * Issue 30 item 7: nothing links a trader. Two traders deposit, cross (a partial fill), split and
 * merge notes, withdraw odd amounts to fresh addresses and sync, every ledger call and engine
 * request recorded by phase. A chain observer that reads only the ledger's public methods then
 * tries the linkages the outside analysis found, each scored against the wallets' ground truth.
 * Real engine, ledger and settlement; stand-in proofs. The observer's checks are tested on
 * synthetic chains first (a withdrawal signed by a depositing key, one that spends a split's
 * output), so the scenario cannot pass by the observer seeing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockRecord, DepositRecord, TransactionRecord } from '@nightjar/ledger';
import { requiredCollateral, type Instrument } from '@nightjar/protocol';
import {
  cancelOrder,
  createStream,
  deposit,
  mergeNotes,
  placeOrder,
  splitNote,
  syncWallet,
  waitForInclusion,
  withdraw,
  type StreamClient,
  type WithdrawReturnType,
} from '../src/index.js';
import {
  appendedBy,
  observeChain,
  PUBLIC_READS,
  publicReads,
  reusedWithdrawalSigners,
  withdrawalsOfJoinSplitOutputs,
  type ChainView,
  type PublicLedgerReads,
} from './chain-observer.js';
import { advanceUntil, finalize, newParty, type Party } from '@nightjar/testkit';
import { freshAddress, startTestVenue, type TestVenue } from './helpers.js';
import {
  callsJoining,
  carries,
  engineRequestLog,
  inclusionRequests,
  SessionRecorder,
  type EngineRequest,
  type Phase,
} from './privacy-recorders.js';

const hex = (n: number) => n.toString(16).padStart(64, '0');

/** A ledger serving synthetic finalized blocks through the public reads only. */
function syntheticLedger(blocks: BlockRecord[], leaves: string[]): PublicLedgerReads {
  const txs = blocks.flatMap((b) => b.transactions.map((t) => ({ ...t, slot: b.slot })));
  const deposits = (owner: string): DepositRecord[] =>
    txs
      .filter((t) => t.signer === owner && t.instruction.name === 'deposit')
      .map((t, i) => ({
        signature: t.signature,
        slot: t.slot,
        tree_id: 0,
        leaf_index: i,
        mint: String(t.instruction.args.mint),
        amount: String(t.instruction.args.amount),
        note_commitment: String(t.instruction.args.note_commitment),
      }));
  const reads = {
    getSlot: async () => blocks.length - 1,
    getVault: async () => ({ num_trees: 1 }),
    getBlock: async ({ slot }: { slot: number }) => blocks[slot]!,
    getTransaction: async ({ signature }: { signature: string }): Promise<TransactionRecord | null> => {
      const t = txs.find((x) => x.signature === signature);
      return t
        ? {
            signature,
            slot: t.slot,
            confirmation_status: 'finalized',
            err: null,
            instruction: t.instruction.name,
            result: null,
          }
        : null;
    },
    getDeposits: async ({ owner, from }: { owner: string; from?: number }) => ({
      deposits: deposits(owner).slice(from ?? 0),
    }),
    getMemos: async () => ({ memos: [] }),
    getLeaves: async ({ from, to }: { from: number; to: number }) => ({
      leaves: leaves.slice(from, to).map((value, i) => ({ leaf_index: from + i, value })),
    }),
  };
  return reads as unknown as PublicLedgerReads;
}

/** A block of one transaction each, in slot order. */
const chainOf = (...txs: { signer: string; name: string; args: Record<string, unknown> }[]): BlockRecord[] =>
  txs.map((t, slot) => ({
    slot,
    transactions: [
      {
        signature: `sig${slot}`,
        signer: t.signer,
        nonce: '1',
        instruction: { name: t.name, args: t.args },
        err: null,
      },
    ],
  }));

describe('the chain observer finds the linkages it looks for (synthetic chains)', () => {
  // Ground truth: F funded a deposit (C0, nullifier N0); a split made C1 and C2 (nullifiers N1, N2).
  const [C0, C1, C2, C3, N0, N1] = [1, 2, 3, 4, 10, 11].map(hex);
  const truth = new Map([
    [N0!, C0!],
    [N1!, C1!],
  ]);
  const depositByF = {
    signer: 'F',
    name: 'deposit',
    args: { mint: 'M', amount: '1000', note_commitment: C0 },
  };
  const split = {
    signer: 'K1',
    name: 'join_split',
    args: { inputs: [{ nullifier: N0 }], outputs: [{ commitment: C1 }, { commitment: C2 }] },
  };

  it('before issue 30: a split, then a withdrawal of its output signed by the funding key, is linked twice', async () => {
    const withdrawal = {
      signer: 'F',
      name: 'withdraw',
      args: { nullifier: N1, mint: 'M', amount: '123', recipient: 'R' },
    };
    const view = await observeChain(syntheticLedger(chainOf(depositByF, split, withdrawal), [C0!, C1!, C2!]));
    expect(view.txs.map((t) => t.instruction)).toEqual(['deposit', 'join_split', 'withdraw']);
    expect(view.depositsBySigner.get('F')?.map((d) => d.note_commitment)).toEqual([C0]);
    expect(reusedWithdrawalSigners(view)).toEqual([
      { withdrawal: 'sig2', reason: 'signer also signed deposit' },
    ]);
    expect(withdrawalsOfJoinSplitOutputs(view, (n) => truth.get(n))).toEqual([
      { withdrawal: 'sig2', reason: `spends output ${C1} of join_split sig1` },
    ]);
  });

  it('since issue 30: a one-time signer and a change output in the same withdrawal leave nothing to link', async () => {
    const withdrawal = {
      signer: 'K2',
      name: 'withdraw',
      args: { nullifier: N0, mint: 'M', amount: '123', recipient: 'R', change: { commitment: C3 } },
    };
    const view = await observeChain(syntheticLedger(chainOf(depositByF, withdrawal), [C0!, C3!]));
    expect(view.txs[1]).toMatchObject({ spends: [N0], appends: [C3], recipients: ['R'], amount: '123' });
    expect(reusedWithdrawalSigners(view)).toEqual([]);
    expect(withdrawalsOfJoinSplitOutputs(view, (n) => truth.get(n))).toEqual([]);
    expect(appendedBy(view, C0!)?.instruction).toBe('deposit');
  });

  it('a ledger call carrying a funding address beside a nullifier is flagged', () => {
    const calls = [
      { phase: 'sync', method: 'getDeposits', params: { owner: 'F' } },
      { phase: 'sync', method: 'getNoteStatuses', params: { nullifiers: [N0] } },
      { phase: 'sync', method: 'getNoteStatuses', params: { owner: 'F', nullifiers: [N1] } },
    ];
    expect(callsJoining(calls, 'F', [N0!, N1!])).toEqual([calls[2]]);
    expect(carries({ a: 5n, b: [N0] }, N0!)).toBe(true);
  });

  it('publicReads exposes the public reads and nothing else', () => {
    expect(Object.keys(publicReads(syntheticLedger([], []))).sort()).toEqual([...PUBLIC_READS].sort());
  });
});

/** What the scenario leaves behind for its checks. */
interface Scenario {
  a: Party;
  b: Party;
  recA: SessionRecorder;
  recB: SessionRecorder;
  engine: EngineRequest[];
  withdrawals: WithdrawReturnType[];
  /** Slots the withdrawals phase ran in (from its first processed slot to the last finalized). */
  withdrawalSlots: { from: number; to: number };
  /** The observer's view once everything is final. */
  view: ChainView;
}

const phase: Phase = { current: 'setup' };
const engineLog = engineRequestLog(phase);
let v: TestVenue;
let s: Scenario;
/** Every client the scenario opened, closed after it however it ended. */
const parties: Party[] = [];

/** A withdrawal's amount that is no note's value: a payout of it needs change. */
function oddAmount(party: Party, mint: string): { commitment: string; amount: bigint } {
  const note = party.wallet.freeNotes(mint).at(-1)!;
  const amount = note.amount / 3n + 1n;
  expect([...party.wallet.notes.values()].map((n) => n.amount)).not.toContain(amount);
  return { commitment: note.commitment, amount };
}

async function runScenario(): Promise<Scenario> {
  const recA = new SessionRecorder(phase);
  const recB = new SessionRecorder(phase);
  const a = await newParty(v, { ledger: recA.ledger });
  parties.push(a);
  const b = await newParty(v, { ledger: recB.ledger });
  parties.push(b);
  recA.watch(a.client);
  recB.watch(b.client);
  const streams: StreamClient[] = [];
  try {
    const inst: Instrument = await a.client.instrument('SOL-USDC');
    const SOL = inst.base_mint;
    const USDC = inst.quote_mint;
    const ONE = 10n ** BigInt(inst.base_decimals);
    const price = 150n * 10n ** BigInt(inst.quote_decimals);
    // A bids 2 SOL at 150 on an exact note; B asks 1: A's bid is partially filled.
    const bidCollateral = requiredCollateral('bid', 2n * ONE, price, inst);
    const askCollateral = requiredCollateral('ask', ONE, 0n, inst);
    const small = 1_000n; // A's note to split and merge: too small to back the bid
    await v.ledger.requestAirdrop({
      owner: a.wallet.keys.funding.address,
      mint: USDC,
      amount: `${bidCollateral + small}`,
    });
    await v.ledger.requestAirdrop({
      owner: b.wallet.keys.funding.address,
      mint: SOL,
      amount: `${askCollateral}`,
    });
    const finalizeOnLanding = {
      onProgress: (p: { stage: string }) => {
        if (p.stage === 'landed') void finalize(v);
      },
    };

    phase.current = 'deposits';
    const bidNote = await deposit(a.client, { mint: USDC, amount: bidCollateral, ...finalizeOnLanding });
    const smallNote = await deposit(a.client, { mint: USDC, amount: small, ...finalizeOnLanding });
    await deposit(b.client, { mint: SOL, amount: askCollateral, ...finalizeOnLanding });
    expect([bidNote.usable, smallNote.usable]).toEqual([true, true]);
    expect(
      await waitForInclusion(a.client, { commitment: smallNote.note.commitment, timeoutMs: 5_000 }),
    ).toBe(true);

    phase.current = 'orders';
    const fills = { a: 0, b: 0 };
    for (const [party, key] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      const stream = await createStream(party.client);
      stream.on('fill', (e) => {
        if (e.type === 'fill' && e.stored) fills[key]++;
      });
      streams.push(stream);
    }
    const bid = await placeOrder(a.client, {
      symbol: inst.symbol,
      side: 'bid',
      amount: 2n * ONE,
      price: '150',
    });
    expect(bid.noteCommitment).toBe(bidNote.note.commitment);
    const ask = await placeOrder(b.client, { symbol: inst.symbol, side: 'ask', amount: ONE, price: '150' });
    await advanceUntil(v, () => fills.a === 1 && fills.b === 1, 'the partial fill');
    expect(a.wallet.orders.get(bid.orderId)).toMatchObject({ status: 'pending', filledQuantity: ONE });
    expect(b.wallet.orders.get(ask.orderId)?.status).toBe('fully_filled');
    await cancelOrder(a.client, { orderId: bid.orderId });
    await finalize(v);

    phase.current = 'split';
    const split = await splitNote(a.client, {
      mint: USDC,
      commitment: smallNote.note.commitment,
      amounts: [300n, 300n],
      ...finalizeOnLanding,
    });
    expect(split.notes.map((n) => n.amount)).toEqual([300n, 300n, 400n]);

    phase.current = 'merge';
    const merged = await mergeNotes(a.client, {
      mint: USDC,
      commitments: [split.notes[0]!.commitment, split.notes[1]!.commitment],
      ...finalizeOnLanding,
    });
    expect(merged.note.amount).toBe(600n);

    phase.current = 'withdrawals';
    // The merge was finalized, so the clock has moved on: what lands now is this phase's.
    const from = await v.ledger.getSlot({ commitment: 'processed' });
    // A takes out part of its SOL fill, B part of its USDC proceeds: each ONE transaction.
    const withdrawals: WithdrawReturnType[] = [];
    for (const [party, mint] of [
      [a, SOL],
      [b, USDC],
    ] as const) {
      const { commitment, amount } = oddAmount(party, mint);
      const out = await withdraw(party.client, { commitment, amount, recipient: freshAddress() });
      expect(out.change?.amount).toBeGreaterThan(0n);
      withdrawals.push(out);
    }
    await finalize(v);
    for (const w of withdrawals)
      expect(await v.ledger.getBalance({ owner: w.recipient, mint: w.note.mint })).toBe(`${w.amount}`);
    const to = await v.ledger.getSlot({ commitment: 'finalized' });

    phase.current = 'sync';
    for (const party of [a, b]) await syncWallet(party.client);
    expect(a.wallet.notes.get(withdrawals[0]!.note.commitment)?.state).toBe('spent');
    expect(b.wallet.notes.get(withdrawals[1]!.note.commitment)?.state).toBe('spent');
    phase.current = 'done';

    const view = await observeChain(publicReads(v.ledger));
    return {
      a,
      b,
      recA,
      recB,
      engine: engineLog.requests,
      withdrawals,
      withdrawalSlots: { from, to },
      view,
    };
  } finally {
    await Promise.all(streams.map((st) => st.close()));
  }
}

beforeAll(async () => {
  v = await startTestVenue({
    settle: true,
    loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 },
    logger: engineLog.logger,
  });
  s = await runScenario();
}, 90_000);
afterAll(async () => {
  await Promise.all(parties.map((p) => p.client.close()));
  await v?.close();
});

/** Every nullifier a wallet ever held, and its note's commitment (the ground truth). */
const nullifiersOf = (p: Party) => [...p.wallet.notes.values()].map((n) => n.nullifier);
const commitmentOfNullifier = (n: string) =>
  [s.a, s.b].flatMap((p) => [...p.wallet.notes.values()]).find((note) => note.nullifier === n)?.commitment;

describe('two traders, one chain observer: nothing links a trader (issue 30 item 7)', () => {
  it("the observer's view is sound: it sees the deposits, the settlement, the split and merge, and both withdrawals", () => {
    const { view, a, b } = s;
    const funding = [a, b].map((p) => p.wallet.keys.funding.address);
    expect(view.depositsBySigner.get(funding[0]!)?.length).toBe(2);
    expect(view.depositsBySigner.get(funding[1]!)?.length).toBe(1);
    const spentBy = (instruction: string, p: Party) =>
      view.txs.filter(
        (t) => t.instruction === instruction && t.spends.some((n) => nullifiersOf(p).includes(n)),
      );
    expect(spentBy('settle_batch', a)).toHaveLength(1);
    expect(spentBy('settle_batch', a)).toEqual(spentBy('settle_batch', b)); // the one match
    expect(spentBy('join_split', a)).toHaveLength(2); // the split and the merge
    expect(
      view.txs
        .filter((t) => t.instruction === 'withdraw')
        .map((t) => t.signature)
        .sort(),
    ).toEqual(s.withdrawals.map((w) => w.signature).sort());
    for (const w of s.withdrawals) {
      const seen = view.txs.find((t) => t.signature === w.signature)!;
      expect(seen).toMatchObject({
        amount: `${w.amount}`,
        recipients: [w.recipient],
        appends: [w.change!.commitment],
      });
    }
    expect(view.memos).toBeGreaterThan(0);
  });

  it('1. no withdrawal is signed by a key that signed anything else, nor by a funding address', () => {
    expect(reusedWithdrawalSigners(s.view)).toEqual([]);
    const funding = new Set([s.a, s.b].map((p) => p.wallet.keys.funding.address));
    const depositors = new Set(s.view.txs.filter((t) => t.instruction === 'deposit').map((t) => t.signer));
    expect([...funding].every((f) => depositors.has(f))).toBe(true);
    for (const w of s.view.txs.filter((t) => t.instruction === 'withdraw')) {
      expect(funding.has(w.signer)).toBe(false);
      expect(depositors.has(w.signer)).toBe(false);
    }
  });

  it('2. no withdrawal spends a join-split output, and an odd amount is one transaction', () => {
    expect(withdrawalsOfJoinSplitOutputs(s.view, commitmentOfNullifier)).toEqual([]);
    // The observer finds each withdrawn note's commitment (ground truth) in the tree, made by the settlement.
    for (const w of s.withdrawals) {
      expect(s.view.leaves.has(w.note.commitment)).toBe(true);
      expect(appendedBy(s.view, w.note.commitment)?.instruction).toBe('settle_batch');
    }
    const { from, to } = s.withdrawalSlots;
    const during = s.view.txs.filter((t) => t.slot >= from && t.slot <= to);
    expect(during.filter((t) => t.instruction === 'join_split')).toEqual([]);
    expect(during.filter((t) => t.instruction === 'withdraw')).toHaveLength(2);
  });

  it('3. the SDK asked the venue for no inclusion path outside an order placement', () => {
    const outsideOrders = (r: EngineRequest) => r.phase !== 'orders' && r.phase !== 'setup';
    for (const requests of [s.recA.paths, s.recB.paths, s.engine])
      expect(inclusionRequests(requests.filter(outsideOrders))).toEqual([]);
    // The recorders were live: the deposits, split and merge waited on the venue's tree, the
    // withdrawals went to the ledger.
    for (const p of ['deposits', 'split', 'merge'])
      expect(s.recA.paths.some((r) => r.phase === p)).toBe(true);
    for (const rec of [s.recA, s.recB])
      expect(rec.calls.filter((c) => c.phase === 'withdrawals').map((c) => c.method)).toContain(
        'sendTransaction',
      );
    // The recorders see the route: an order's own input proof names its note (the spec).
    expect(inclusionRequests(s.recA.paths).map((r) => r.phase)).toEqual(['orders']);
    expect(inclusionRequests(s.engine).length).toBeGreaterThanOrEqual(2);
  });

  it("4. no ledger call carried a wallet's funding address beside its nullifiers, and a sync sent no nullifier", () => {
    const everyNullifier = [
      ...nullifiersOf(s.a),
      ...nullifiersOf(s.b),
      ...s.view.txs.flatMap((t) => [...t.spends, ...t.locks]),
    ];
    for (const [p, rec] of [
      [s.a, s.recA],
      [s.b, s.recB],
    ] as const) {
      const funding = p.wallet.keys.funding.address;
      expect(rec.calls.some((c) => c.method === 'sendTransaction')).toBe(true);
      expect(callsJoining(rec.calls, funding, nullifiersOf(p))).toEqual([]);
      const sync = rec.calls.filter((c) => c.phase === 'sync');
      expect(sync.filter((c) => everyNullifier.some((n) => carries(c.params, n)))).toEqual([]);
      // By design: the sync names the funding address (getDeposits) and mirrors the spent set.
      expect(sync.some((c) => c.method === 'getDeposits' && carries(c.params, funding))).toBe(true);
      expect(sync.map((c) => c.method)).toContain('getSpentNullifiers');
    }
  });
});
