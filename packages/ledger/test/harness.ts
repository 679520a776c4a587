/** Test harness: a manual-clock dev ledger, actors that sign transactions, and note helpers. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveNote, randomFieldElement, ownerCommitment } from '@nightjar/crypto';
import { addressToBase58, ed25519PublicKey, fieldToHex, parseAddress } from '@nightjar/protocol';
import { randomBytes } from 'node:crypto';
import {
  COMMITMENT_LAG,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  mintAddress,
  signTransaction,
  type AdmissionLimits,
  type DevKeys,
  type Circuit,
  type DevLedgerClient,
  type Instruction,
  type LedgerProofVerifier,
  type TransactionRecord,
} from '../src/index.js';

/** Accepts every proof except those whose first byte is 0xee, and records what it was asked. */
export class TestVerifier implements LedgerProofVerifier {
  readonly calls: { circuit: string; inputs: bigint[] }[] = [];
  /** Sizes of the batches it was asked to verify at once. */
  readonly batches: number[] = [];
  private gate: Promise<void> | undefined;
  /** Holds every verdict (a slow verifier) until the returned function is called. */
  hold(): () => void {
    let open!: () => void;
    this.gate = new Promise((resolve) => (open = resolve));
    return () => {
      this.gate = undefined;
      open();
    };
  }
  async verify(circuit: Circuit, proof: Uint8Array, inputs: bigint[]): Promise<boolean> {
    this.calls.push({ circuit, inputs });
    if (this.gate) await this.gate;
    return proof[0] !== 0xee;
  }
  async verifyBatch(circuit: Circuit, items: { proof: Uint8Array; publicInputs: bigint[] }[]) {
    this.batches.push(items.length);
    return Promise.all(items.map((i) => this.verify(circuit, i.proof, i.publicInputs)));
  }
}
export const GOOD_PROOF = '11'.repeat(256);
export const BAD_PROOF = 'ee'.repeat(256);

export const SOL = mintAddress('SOL');
export const USDC = mintAddress('USDC');

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'nightjar-ledger-'));
}

export class Actor {
  readonly address: string;
  private nonce = 0n;
  constructor(readonly seed: Uint8Array = Uint8Array.from(randomBytes(32))) {
    this.address = addressToBase58(ed25519PublicKey(seed));
  }
  /** Continues from the last nonce the ledger accepted from this signer. */
  async sync(client: DevLedgerClient): Promise<void> {
    this.nonce = BigInt((await client.getNonce({ signer: this.address })) ?? '0');
  }
  sign(instruction: Instruction, nonce?: bigint) {
    this.nonce = nonce ?? this.nonce + 1n;
    return signTransaction(this.seed, this.nonce, instruction);
  }
  /** Sends and returns the landed record (the ledger must be idle: latency 0). */
  async send(
    client: DevLedgerClient,
    name: string,
    args: Record<string, unknown>,
  ): Promise<TransactionRecord> {
    const tx = this.sign({ name, args });
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
    treeId,
  };
}

/** A settlement output creating `note`, optionally re-locked to an order. */
export function outputOf(
  note: TestNote,
  relock?: { order_id: string; until_slot: number; nullifier?: string },
): Record<string, unknown> {
  return {
    tree_id: note.treeId,
    mint: note.mint,
    amount: note.amount.toString(),
    opening_hash: note.openingHash,
    ...(relock
      ? {
          relock: {
            order_id: relock.order_id,
            until_slot: String(relock.until_slot),
            nullifier: relock.nullifier ?? note.nullifier,
          },
        }
      : {}),
  };
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
  lock(note: TestNote, untilOffset?: number, orderId?: string): Promise<TransactionRecord>;
  /** `lock_note` arguments for `note` at the current root (also one entry of `lock_notes`). */
  lockArgs(
    note: TestNote,
    options?: { untilOffset?: number; orderId?: string; proof?: string },
  ): Promise<Record<string, unknown>>;
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
    admission?: AdmissionLimits;
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
  });
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
    async lock(note, untilOffset = 100, orderId = 'ab'.repeat(16)) {
      return tee.send(client, 'lock_note', await h.lockArgs(note, { untilOffset, orderId }));
    },
    async lockArgs(note, { untilOffset = 100, orderId = 'ab'.repeat(16), proof = GOOD_PROOF } = {}) {
      const slot = await client.getSlot();
      return {
        tree_id: note.treeId,
        merkle_root: await h.currentRoot(note.treeId),
        note_commitment: note.commitment,
        nullifier: note.nullifier,
        mint: note.mint,
        proof,
        order_id: orderId,
        until_slot: String(slot + untilOffset),
      };
    },
    async currentRoot(treeId = 0) {
      return (await client.getTreeRoot({ tree_id: treeId })).merkle_root;
    },
  };
  return h;
}
