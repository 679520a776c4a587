/** The ledger's JSON-RPC vocabulary (DESIGN.md section 6). u64 values travel as decimal strings. */

export const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;
export type Commitment = (typeof COMMITMENTS)[number];

/** Slots a state must have aged to count at each commitment level. */
export const COMMITMENT_LAG: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 31 };

/**
 * Slots of a shard's root window by age (`getRootWindow`, what engine intake accepts for 1010): the
 * finality depth plus 150 slots, 181. The ledger itself accepts any root a shard ever had.
 */
export const ROOT_WINDOW_SLOTS = COMMITMENT_LAG.finalized + 150;

/**
 * What a signer needs to know about the chain it signs for (`getChain`; also in `getVault`). Not
 * in DESIGN 6: an addition of this implementation (docs/ledger.md, "Transactions").
 */
export interface ChainInfo {
  /** SHA-256 of the genesis record (chain-id.ts), 64 hex; part of every transaction's digest. */
  chain_id: string;
  /** Leading zero bits the digest of a fresh signer's transaction must have. */
  fresh_signer_work_bits: number;
}

export interface VaultInfo extends ChainInfo {
  admin: string;
  fee_owner_commitment: string;
  num_trees: number;
  tee_keys: string[];
  signer_set_sha256: string;
}

export interface MarketRecord {
  symbol: string;
  market_id: string;
  base_mint: string;
  quote_mint: string;
  base_decimals: number;
  quote_decimals: number;
  price_scale: string;
  tick_size: string;
  min_order_size: string;
  fee_bps: string;
  trading_enabled: boolean;
}

export interface TreeRootRecord {
  tree_id: number;
  merkle_root: string;
  leaf_count: number;
  /** The slot the read was served at (the commitment level's slot), like a Solana context slot. */
  slot: number;
}

/**
 * A shard's roots of the last ROOT_WINDOW_SLOTS (181) slots at a commitment level, however many
 * appends that is, oldest first, ending with that level's root, hex (what engine intake accepts).
 */
export interface RootWindowRecord {
  tree_id: number;
  roots: string[];
}

export interface LeafRecord {
  leaf_index: number;
  value: string;
}

export interface Instruction {
  name: string;
  args: Record<string, unknown>;
}

export interface Transaction {
  signer: string;
  nonce: string;
  instruction: Instruction;
  signature: string;
}

export interface TransactionError {
  code: string;
  message: string;
}

export interface SignatureStatus {
  slot: number;
  confirmation_status: Commitment;
  err: TransactionError | null;
}

/** Per-match result of a `settle_batch`: each match lands or fails on its own. */
export interface MatchOutcome {
  match_idx: number;
  ok: boolean;
  err?: TransactionError;
  /** Leaf indices of the appended outputs, in argument order. */
  output_leaves?: { tree_id: number; leaf_index: number }[];
}

/** Per-lock result of a `lock_notes`: each lock lands or fails on its own. */
export interface LockOutcome {
  nullifier: string;
  ok: boolean;
  err?: TransactionError;
}

export interface TransactionRecord extends SignatureStatus {
  signature: string;
  instruction: string;
  result: {
    matches?: MatchOutcome[];
    locks?: LockOutcome[];
    leaf?: { tree_id: number; leaf_index: number };
    /** A `join_split`'s output leaves, in output order. */
    leaves?: { tree_id: number; leaf_index: number }[];
  } | null;
}

/** One landed transaction of a block, exactly as its signer sent it. */
export interface BlockTransaction {
  signature: string;
  signer: string;
  nonce: string;
  instruction: Instruction;
  err: TransactionError | null;
}

/** Every transaction that landed in a finalized slot, in landing order (`getBlock`). */
export interface BlockRecord {
  slot: number;
  transactions: BlockTransaction[];
}

/** A deposit that landed, as `getDeposits` returns it (amount a u64 decimal string). */
export interface DepositRecord {
  signature: string;
  slot: number;
  tree_id: number;
  leaf_index: number;
  mint: string;
  amount: string;
  note_commitment: string;
}

/** A note's state by nullifier. A lock whose `until_slot` has passed reads as free. */
export interface NoteStatus {
  state: 'free' | 'locked' | 'spent';
  /** Only when locked: the first slot at which the lock no longer holds. */
  locked_until_slot?: number;
}

/**
 * An encrypted memo as stored with its transaction; `index` is global, in storage order. `fill`:
 * a settlement party's fill memo (DESIGN 7); `note`: a join-split's note memo to its owner
 * (@nightjar/crypto note-memo.ts), with `match_idx` and `party` 0.
 */
export interface MemoRecord {
  index: number;
  signature: string;
  match_idx: number;
  party: number;
  memo: string;
  kind: 'fill' | 'note';
}

/** Per mint: the vault's token balance and the value of unspent notes (equal by the invariant). */
export interface MintSolvency {
  mint: string;
  vault_balance: string;
  outstanding_note_value: string;
}

export type LedgerEvent =
  | { type: 'slot'; slot: number }
  /** From a remote client only: the event stream was interrupted and is back; events may be missing. */
  | { type: 'resync' }
  | {
      type: 'leaf';
      tree_id: number;
      leaf_index: number;
      commitment: string;
      slot: number;
      /** The appending transaction's sequence number, shared by every leaf it appended. */
      seq: number;
      /** How many leaves that transaction appended to this shard (one root-window step). */
      count: number;
    }
  /**
   * A note's state changed (spent by a settlement, withdrawal or join-split; locked; released), as
   * `getNoteStatus` reads it once the transaction landed. Nullifiers are public in the transactions
   * themselves (`getBlock`), so this tells a subscriber nothing a block does not.
   */
  | ({ type: 'note'; nullifier: string; slot: number } & NoteStatus);

/** Faults a test can switch on at run time. Rates are probabilities in [0, 1]. */
export interface FaultConfig {
  /** The transaction is refused and never lands. */
  rejectRate: number;
  /** The transaction lands but the sender hears an error. */
  dropRate: number;
  /** Extra slots before a transaction lands. */
  latencySlots: number;
  /** Every RPC call fails as if the node were down. */
  outage: boolean;
  /** Shards whose leaf events are corrupted so that mirrors diverge from the chain's root. */
  divergedShards: number[];
}

export const NO_FAULTS: FaultConfig = {
  rejectRate: 0,
  dropRate: 0,
  latencySlots: 0,
  outage: false,
  divergedShards: [],
};
