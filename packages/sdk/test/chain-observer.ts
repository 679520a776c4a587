/**
 * A chain-analysis firm's view of the ledger (issue 30 item 7): it reads only the public methods
 * any ledger node serves (every block from genesis, transactions, deposits, memos, leaves), never
 * a dev control or a wallet's secret, and lists every landed transaction's instruction, signer,
 * spent and locked nullifiers, appended commitments and recipients. The linkage checks below run
 * on that view; the scenario test scores them against the wallets' ground truth.
 */
import type { BlockTransaction, DepositRecord, LedgerClient } from '@nightjar/ledger';

/** The reads anyone may make of any ledger node: no writes, no dev controls, no faucet. */
export const PUBLIC_READS = [
  'getSlot',
  'getVault',
  'getBlock',
  'getTransaction',
  'getDeposits',
  'getMemos',
  'getLeaves',
] as const;

export type PublicLedgerReads = Pick<LedgerClient, (typeof PUBLIC_READS)[number]>;

/** Only the public reads of `ledger`: the observer cannot reach anything else of it. */
export function publicReads(ledger: PublicLedgerReads): PublicLedgerReads {
  return Object.fromEntries(
    PUBLIC_READS.map((name) => [name, (ledger[name] as (p?: unknown) => unknown).bind(ledger)]),
  ) as unknown as PublicLedgerReads;
}

/** One landed transaction as the observer reads it. */
export interface ObservedTx {
  slot: number;
  signature: string;
  signer: string;
  instruction: string;
  /** Nullifiers the transaction consumed (a join-split's inputs, a withdrawal's, a match's). */
  spends: string[];
  /** Nullifiers it locked (a lock is not a spend). */
  locks: string[];
  /** Commitments it appended to a tree. */
  appends: string[];
  recipients: string[];
  mint?: string;
  amount?: string;
}

export interface ChainView {
  /** The last finalized slot the observer read up to. */
  lastSlot: number;
  txs: ObservedTx[];
  /** Every commitment in every shard's tree. */
  leaves: Set<string>;
  /** `getDeposits` of every address that signed a deposit. */
  depositsBySigner: Map<string, DepositRecord[]>;
  memos: number;
}

type Args = Record<string, unknown>;
const list = (v: unknown): Args[] => (Array.isArray(v) ? (v as Args[]) : []);
const str = (v: unknown): string[] => (typeof v === 'string' ? [v] : []);

/** What one instruction shows: its nullifiers, commitments and recipients, by its public args. */
export function describeTransaction(slot: number, tx: BlockTransaction): ObservedTx {
  const a = tx.instruction.args as Args;
  const seen: ObservedTx = {
    slot,
    signature: tx.signature,
    signer: tx.signer,
    instruction: tx.instruction.name,
    spends: [],
    locks: [],
    appends: [],
    recipients: [],
  };
  switch (tx.instruction.name) {
    case 'deposit':
      return { ...seen, appends: str(a.note_commitment), mint: String(a.mint), amount: String(a.amount) };
    case 'join_split':
      return {
        ...seen,
        spends: list(a.inputs).flatMap((i) => str(i.nullifier)),
        appends: list(a.outputs).flatMap((o) => str(o.commitment)),
      };
    case 'withdraw': {
      const change = a.change as Args | undefined;
      return {
        ...seen,
        spends: str(a.nullifier),
        appends: change ? str(change.commitment) : [],
        recipients: str(a.recipient),
        mint: String(a.mint),
        amount: String(a.amount),
      };
    }
    case 'settle_batch':
      return {
        ...seen,
        spends: list(a.matches).flatMap((m) => list(m.inputs).flatMap((i) => str(i.nullifier))),
        appends: list(a.matches).flatMap((m) => list(m.outputs).flatMap((o) => str(o.commitment))),
      };
    case 'lock_note':
      return { ...seen, locks: str(a.nullifier) };
    case 'lock_notes':
      return { ...seen, locks: list(a.locks).flatMap((l) => str(l.nullifier)) };
    default:
      return seen;
  }
}

/** Reads the chain from genesis to the last finalized slot through `ledger`'s public reads alone. */
export async function observeChain(ledger: PublicLedgerReads): Promise<ChainView> {
  const lastSlot = await ledger.getSlot({ commitment: 'finalized' });
  const txs: ObservedTx[] = [];
  for (let slot = 0; slot <= lastSlot; slot++) {
    const block = await ledger.getBlock({ slot });
    for (const tx of block.transactions) if (tx.err === null) txs.push(describeTransaction(slot, tx));
  }
  // A withdrawal is read once more on its own, as an explorer links to it.
  for (const w of txs.filter((t) => t.instruction === 'withdraw')) {
    const rec = await ledger.getTransaction({ signature: w.signature });
    if (rec?.err !== null || rec.slot !== w.slot)
      throw new Error(`withdrawal ${w.signature} reads back wrong`);
  }
  const depositsBySigner = new Map<string, DepositRecord[]>();
  for (const signer of new Set(txs.filter((t) => t.instruction === 'deposit').map((t) => t.signer))) {
    const deposits: DepositRecord[] = [];
    for (;;) {
      const page = await ledger.getDeposits({ owner: signer, from: deposits.length });
      if (page.deposits.length === 0) break;
      deposits.push(...page.deposits);
    }
    depositsBySigner.set(signer, deposits);
  }
  const leaves = new Set<string>();
  const { num_trees } = await ledger.getVault();
  for (let tree_id = 0; tree_id < num_trees; tree_id++) {
    for (let from = 0; ;) {
      const { leaves: page } = await ledger.getLeaves({ tree_id, from, to: from + 2_048 });
      if (page.length === 0) break;
      for (const l of page) leaves.add(l.value);
      from += page.length;
    }
  }
  let memos = 0;
  for (;;) {
    const page = await ledger.getMemos({ from: memos, to: memos + 10_000 });
    if (page.memos.length === 0) break;
    memos += page.memos.length;
  }
  return { lastSlot, txs, leaves, depositsBySigner, memos };
}

/** A withdrawal the observer can tie to something else, and what ties it. */
export interface Linkage {
  withdrawal: string;
  reason: string;
}

const withdrawals = (view: ChainView) => view.txs.filter((t) => t.instruction === 'withdraw');

/**
 * Withdrawals whose signer signed any other transaction: a one-time key signs once, so a signer
 * seen twice ties the withdrawal to the rest (a deposit above all).
 */
export function reusedWithdrawalSigners(view: ChainView): Linkage[] {
  return withdrawals(view).flatMap((w) => {
    const others = view.txs.filter((t) => t.signer === w.signer && t.signature !== w.signature);
    return others.length === 0
      ? []
      : [
          {
            withdrawal: w.signature,
            reason: `signer also signed ${others.map((t) => t.instruction).join(', ')}`,
          },
        ];
  });
}

/** The transaction that appended `commitment`, if the observer saw one. */
export function appendedBy(view: ChainView, commitment: string): ObservedTx | undefined {
  return view.txs.find((t) => t.appends.includes(commitment));
}

/**
 * Withdrawals that spend a join-split's output. The nullifier hides which note it is, so this takes
 * the ground truth (`commitmentOf`: a wallet's nullifier to its note's commitment; undefined for a
 * note the test holds no secret of) and asks which transaction appended that commitment.
 */
export function withdrawalsOfJoinSplitOutputs(
  view: ChainView,
  commitmentOf: (nullifier: string) => string | undefined,
): Linkage[] {
  return withdrawals(view).flatMap((w) => {
    const commitment = w.spends.map(commitmentOf).find((c) => c !== undefined);
    const origin = commitment === undefined ? undefined : appendedBy(view, commitment);
    return origin?.instruction === 'join_split'
      ? [{ withdrawal: w.signature, reason: `spends output ${commitment} of join_split ${origin.signature}` }]
      : [];
  });
}
