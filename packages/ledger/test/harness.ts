/** Test harness: a manual-clock dev ledger, actors that sign transactions, and note helpers. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveNote, FILL_MEMO_BYTES, randomFieldElement, ownerCommitment } from '@nightjar/crypto';
import { addressToBase58, ed25519PublicKey, fieldToHex, parseAddress } from '@nightjar/protocol';
import { randomBytes } from 'node:crypto';
import {
  COMMITMENT_LAG,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  marketAddress,
  mintAddress,
  signTransaction,
  type AdmissionLimits,
  type ChainInfo,
  type DevKeys,
  type Circuit,
  type DevLedgerClient,
  type Instruction,
  type LedgerProofVerifier,
  type TransactionRecord,
} from '../src/index.js';

/**
 * Accepts every proof except those whose first byte is 0xee, and those whose first byte is 0x1c
 * for any circuit but VALID_LOCK (a change note's lock proof); records what it was asked.
 */
export class TestVerifier implements LedgerProofVerifier {
  readonly calls: { circuit: string; inputs: bigint[] }[] = [];
  /** Sizes of the batches it was asked to verify at once. */
  readonly batches: number[] = [];
  private gate: { circuit: Circuit | undefined; until: Promise<void> } | undefined;
  /** Holds every verdict (of `circuit`, or of all) as a slow verifier would, until the returned function is called. */
  hold(circuit?: Circuit): () => void {
    let open!: () => void;
    this.gate = { circuit, until: new Promise((resolve) => (open = resolve)) };
    return () => {
      this.gate = undefined;
      open();
    };
  }
  async verify(circuit: Circuit, proof: Uint8Array, inputs: bigint[]): Promise<boolean> {
    this.calls.push({ circuit, inputs });
    const gate = this.gate;
    if (gate && (gate.circuit === undefined || gate.circuit === circuit)) await gate.until;
    if (proof[0] === 0x1c) return circuit === 'valid_lock';
    return proof[0] !== 0xee;
  }
  async verifyBatch(circuit: Circuit, items: { proof: Uint8Array; publicInputs: bigint[] }[]) {
    this.batches.push(items.length);
    return Promise.all(items.map((i) => this.verify(circuit, i.proof, i.publicInputs)));
  }
}
export const GOOD_PROOF = '11'.repeat(256);
export const BAD_PROOF = 'ee'.repeat(256);
/** A proof only the VALID_LOCK key accepts (TestVerifier). */
export const LOCK_ONLY_PROOF = '1c'.repeat(256);

export const SOL = mintAddress('SOL');
export const USDC = mintAddress('USDC');
/** The dev genesis market the settlement tests trade in: base SOL, quote USDC. */
export const SOL_USDC = marketAddress('SOL-USDC');
/** Mint of each output slot in SOL-USDC (MATCH_OUTPUT_SLOTS: bid gets base, pays quote). */
export const SLOT_MINT = [SOL, USDC, USDC, USDC, SOL, SOL] as const;

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'nightjar-ledger-'));
}

/**
 * A dev ledger in a fresh directory, its genesis done, asking `freshSignerWorkBits` of new signers,
 * with a {@link TestVerifier} the test can watch (for tests of admission before any proof).
 */
export async function openDevLedger(
  freshSignerWorkBits: number,
): Promise<{ ledger: Ledger; verifier: TestVerifier; dir: string }> {
  const dir = tempDir();
  const verifier = new TestVerifier();
  const ledger = Ledger.open({
    dataDir: dir,
    clock: { mode: 'manual' },
    dev: true,
    verifier,
    freshSignerWorkBits,
  });
  try {
    await ensureDevGenesis(ledger, loadOrCreateDevKeys(dir));
  } catch (err) {
    await ledger.close();
    throw err;
  }
  return { ledger, verifier, dir };
}

export class Actor {
  /** The chain of the ledger the harness opened last: actors sign for it unless given their own. */
  static chain: ChainInfo | undefined;
  readonly address: string;
  private nonce = 0n;
  constructor(
    readonly seed: Uint8Array = Uint8Array.from(randomBytes(32)),
    private readonly chain?: ChainInfo,
  ) {
    this.address = addressToBase58(ed25519PublicKey(seed));
  }
  /** Continues from the last nonce the ledger accepted from this signer. */
  async sync(client: DevLedgerClient): Promise<void> {
    this.nonce = BigInt((await client.getNonce({ signer: this.address })) ?? '0');
  }
  /** Signs for `chain`, else the actor's own, else the harness's. */
  sign(instruction: Instruction, nonce?: bigint, chain = this.chain ?? Actor.chain) {
    this.nonce = nonce ?? this.nonce + 1n;
    if (!chain) throw new Error('no chain to sign for: start a harness first');
    return signTransaction(this.seed, this.nonce, instruction, chain);
  }
  /** Sends and returns the landed record (the ledger must be idle: latency 0). */
  async send(
    client: DevLedgerClient,
    name: string,
    args: Record<string, unknown>,
  ): Promise<TransactionRecord> {
    // Signed for the chain of the ledger it goes to.
    const tx = this.sign({ name, args }, undefined, await client.getChain());
    await client.sendTransaction({ transaction: tx });
    const record = await client.getTransaction({ signature: tx.signature });
    if (!record) throw new Error('transaction did not land');
    return record;
  }
}

export interface TestNote {
  mint: string;
  amount: bigint;
  spendingKey: bigint;
  inner: bigint;
  openingHash: string;
  commitment: string;
  nullifier: string;
  /** The use tag its lock records (random here: the test verifier does not open it). */
  useTag: string;
  treeId: number;
  leafIndex?: number;
}

export function makeNote(mint: string, amount: bigint, treeId = 0): TestNote {
  const spendingKey = randomFieldElement();
  const inner = randomFieldElement();
  const d = deriveNote({
    mint: parseAddress(mint)!,
    amount,
    ownerCommitment: ownerCommitment(spendingKey),
    noteInnerHash: inner,
  });
  return {
    mint,
    amount,
    spendingKey,
    inner,
    openingHash: fieldToHex(d.openingHash),
    commitment: fieldToHex(d.noteCommitment),
    nullifier: fieldToHex(d.nullifier),
    useTag: fieldToHex(randomFieldElement()),
    treeId,
  };
}

/** A settlement output of `note` (its place in `outputs` is its slot). */
export function outputOf(note: TestNote): { tree_id: number; commitment: string } {
  return { tree_id: note.treeId, commitment: note.commitment };
}

/** A fill memo of the right length (FILL_MEMO_BYTES), hex; `fill` tells two apart. */
export function memoHex(fill = 0xab): string {
  return Buffer.alloc(FILL_MEMO_BYTES, fill).toString('hex');
}

/** A fresh note of the slot's mint (SOL-USDC), for an output. */
export function slotNote(slot: number, amount: bigint, treeId = 0): TestNote {
  return makeNote(SLOT_MINT[slot]!, amount, treeId);
}

export interface MatchOptions {
  match_idx?: number;
  /** Default: six fresh notes of the slots' mints, on shard 0. */
  outputs?: Record<string, unknown>[];
  /** Default: two memos of the right length. */
  memos?: string[];
  proof?: string;
}

/** Six fresh outputs of SOL-USDC (MATCH_OUTPUT_SLOTS order), optionally on other shards. */
export function sixOutputs(treeIds: readonly number[] = [0, 0, 0, 0, 0, 0]): Record<string, unknown>[] {
  return treeIds.map((treeId, slot) => outputOf(slotNote(slot, 1n, treeId)));
}

export interface Harness {
  ledger: Ledger;
  client: DevLedgerClient;
  keys: DevKeys;
  admin: Actor;
  tee: Actor;
  verifier: TestVerifier;
  /** Airdrops and deposits a fresh note for `owner`. */
  deposit(owner: Actor, mint: string, amount: bigint, treeId?: number): Promise<TestNote>;
  lock(note: TestNote, untilOffset?: number, by?: Actor): Promise<TransactionRecord>;
  /** `lock_note` arguments for `note` (also one entry of `lock_notes`), at the shard's current root. */
  lockArgs(
    note: TestNote,
    options?: { untilOffset?: number; proof?: string; root?: string; useTag?: string },
  ): Promise<Record<string, unknown>>;
  /** Deposits a bid note (USDC) and an ask note (SOL) and locks both with the TEE key. */
  lockedPair(options?: {
    bid?: bigint;
    ask?: bigint;
    untilOffset?: number;
  }): Promise<{ bid: TestNote; ask: TestNote }>;
  /** One match of `settle_batch` consuming `bid` then `ask`. */
  matchArgs(bid: TestNote, ask: TestNote, options?: MatchOptions): Promise<Record<string, unknown>>;
  /** Sends `settle_batch` in SOL-USDC (by the TEE key unless `by`; settle_by_slot 100 slots ahead unless given). */
  settle(
    matches: Record<string, unknown>[],
    options?: { by?: Actor; batch_id?: string; market_id?: string; settle_by_slot?: number },
  ): Promise<TransactionRecord>;
  currentRoot(treeId?: number): Promise<string>;
}

/** What each topic of the shared behaviour suite (suite-*.ts) reads from the running test. */
export interface SuiteContext {
  h: Harness;
  c: DevLedgerClient;
  alice: Actor;
}

/**
 * A dev ledger with a manual clock, its genesis, and one TEE key registered and finalized.
 * `client` is what tests talk to: the ledger itself, or a JSON-RPC client in front of it.
 */
export async function startHarness(
  options: {
    dataDir?: string;
    wrap?: (ledger: Ledger) => Promise<DevLedgerClient>;
    memosPerRead?: number;
    admission?: Partial<AdmissionLimits>;
    /** Work asked of fresh signers; none by default, so actors sign without grinding. */
    freshSignerWorkBits?: number;
  } = {},
): Promise<Harness> {
  const verifier = new TestVerifier();
  const ledger = Ledger.open({
    dataDir: options.dataDir,
    clock: { mode: 'manual' },
    dev: true,
    verifier,
    memosPerRead: options.memosPerRead,
    ...(options.admission ? { admission: options.admission } : {}),
    freshSignerWorkBits: options.freshSignerWorkBits ?? 0,
  });
  Actor.chain = await ledger.getChain();
  const keys = loadOrCreateDevKeys(options.dataDir);
  await ensureDevGenesis(ledger, keys);
  const client = options.wrap ? await options.wrap(ledger) : ledger;
  const admin = new Actor(keys.adminSeed);
  await admin.sync(client);
  const tee = new Actor();
  const r = await admin.send(client, 'set_tee_keys', { keys: [tee.address] });
  if (r.err) throw new Error(r.err.message);
  await client.advanceSlots({ slots: COMMITMENT_LAG.finalized });
  const h: Harness = {
    ledger,
    client,
    keys,
    admin,
    tee,
    verifier,
    async deposit(owner, mint, amount, treeId = 0) {
      await client.requestAirdrop({ owner: owner.address, mint, amount: amount.toString() });
      const note = makeNote(mint, amount, treeId);
      const rec = await owner.send(client, 'deposit', {
        tree_id: treeId,
        mint,
        amount: amount.toString(),
        note_commitment: note.commitment,
        opening_hash: note.openingHash,
      });
      if (rec.err) throw new Error(`deposit failed: ${rec.err.message}`);
      note.leafIndex = rec.result?.leaf?.leaf_index;
      return note;
    },
    async lock(note, untilOffset = 100, by = tee) {
      return by.send(client, 'lock_note', await h.lockArgs(note, { untilOffset }));
    },
    async lockArgs(note, { untilOffset = 100, proof = GOOD_PROOF, root, useTag } = {}) {
      const slot = await client.getSlot();
      return {
        tree_id: note.treeId,
        merkle_root: root ?? (await h.currentRoot(note.treeId)),
        nullifier: note.nullifier,
        use_tag: useTag ?? note.useTag,
        until_slot: String(slot + untilOffset),
        proof,
      };
    },
    async lockedPair({ bid = 1_000n, ask = 10n, untilOffset = 100 } = {}) {
      const b = await h.deposit(new Actor(), USDC, bid);
      const a = await h.deposit(new Actor(), SOL, ask);
      for (const n of [b, a]) {
        const r = await h.lock(n, untilOffset);
        if (r.err) throw new Error(`lock failed: ${r.err.message}`);
      }
      return { bid: b, ask: a };
    },
    async matchArgs(bid, ask, options = {}) {
      return {
        match_idx: options.match_idx ?? 0,
        inputs: [{ nullifier: bid.nullifier }, { nullifier: ask.nullifier }],
        outputs: options.outputs ?? sixOutputs(),
        memos: options.memos ?? [memoHex(0xb1), memoHex(0xa5)],
        proof: options.proof ?? GOOD_PROOF,
      };
    },
    async settle(matches, { by = tee, batch_id = '1', market_id = SOL_USDC, settle_by_slot } = {}) {
      const deadline = settle_by_slot ?? (await client.getSlot()) + 100;
      return by.send(client, 'settle_batch', {
        batch_id,
        market_id,
        settle_by_slot: String(deadline),
        matches,
      });
    },
    async currentRoot(treeId = 0) {
      return (await client.getTreeRoot({ tree_id: treeId })).merkle_root;
    },
  };
  return h;
}
