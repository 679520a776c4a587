/**
 * The embedded ledger, in process: the reads (ledger-reads.ts), admission per signer
 * (admission.ts), injected faults (faults.ts) and the single writer (writer.ts), wired together.
 * Transactions land one at a time at the slot they land in; reads see the state at the requested
 * commitment level.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { parseAddress, U64_MAX } from '@nightjar/protocol';
import {
  VAULT_ADDRESS,
  RPC_ERRORS,
  RpcError,
  checkEnvelope,
  leadingZeroBits,
  MAX_FRESH_SIGNER_WORK_BITS,
  signatureHolds,
  transactionDigest,
  type CallContext,
  type DevLedgerClient,
  type ParamsOf,
  type ResultOf,
  COMMITMENT_LAG,
  type FaultConfig,
  type LedgerEvent,
  type Transaction,
} from '@nightjar/protocol/ledger-client';
import { judgeProofs, SignerLanes, sourceOf, type AdmissionLimits, type SignerClass } from './admission.js';
import { loadOrCreateChainId } from './chain-id.js';
import { ChainState } from './chain-state.js';
import { SlotClock, type ClockMode } from './clock.js';
import { loadOrCreateDevSecret } from './dev-secret.js';
import { InjectedFaults } from './faults.js';
import type { GenesisAuthority } from './genesis-authority.js';
import type { HeavyReads } from './heavy-reads.js';
import { LedgerReads } from './ledger-reads.js';
import { decodeInstruction } from './program/args.js';
import type { LedgerProofVerifier } from './program/proof-checks.js';
import { ReaderThread } from './reader-thread.js';
import { DATABASE_FILE, getMeta, openDatabase, setMeta, type Db } from './store.js';
import { LedgerWriter } from './writer.js';

export { MAX_LEAVES_PER_READ } from './ledger-reads.js';

/** Leading zero bits a fresh signer's transaction digest needs by default (about 2^15 hashes, 0.1–0.3 s). */
export const DEFAULT_FRESH_SIGNER_WORK_BITS = 15;

export interface LedgerOptions {
  /** Directory for `ledger.sqlite`; in memory when omitted. */
  dataDir?: string;
  clock?: { mode?: ClockMode; slotMs?: number };
  /** Dev mode allows the faucet and the dev-only controls. */
  dev?: boolean;
  /** Who alone may `initialize`; required outside dev mode (see genesis-authority.ts). */
  genesis?: GenesisAuthority;
  verifier: LedgerProofVerifier;
  /** Write a tree snapshot after this many appended leaves (and always on close). */
  snapshotEveryLeaves?: number;
  /** Source of randomness for fault injection (tests make it deterministic). */
  random?: () => number;
  /** Page cap of getMemos; 10,000 unless a test wants to reach it cheaply. */
  memosPerRead?: number;
  /** Page cap of getLeaves; {@link MAX_LEAVES_PER_READ} unless a benchmark compares another. */
  leavesPerRead?: number;
  /** Transactions waiting to land before -32007 (admission.ts; defaults DEFAULT_ADMISSION_LIMITS). */
  admission?: Partial<AdmissionLimits>;
  /**
   * Leading zero bits the digest of a fresh signer's transaction must have (shown in getVault and
   * getChain); default {@link DEFAULT_FRESH_SIGNER_WORK_BITS}, 0 asks for none (tests).
   */
  freshSignerWorkBits?: number;
}

/** Instructions whose one proof authorises the whole transaction. */
const WHOLE_PROOF_INSTRUCTIONS = new Set(['withdraw', 'join_split', 'lock_note']);
/** Instructions of many lock proofs: refused whole when every one was verified and failed. */
const MANY_LOCK_INSTRUCTIONS = new Set(['lock_notes']);

export class Ledger extends LedgerReads implements DevLedgerClient {
  readonly dev: boolean;
  /**
   * What a dev-only call over JSON-RPC must carry (dev-secret.ts): kept in `<dataDir>/dev-secret`,
   * in memory without a data directory; undefined outside dev mode. In process nothing asks for it.
   */
  readonly devSecret: string | undefined;
  private readonly sqlitePath: string | undefined;
  private readonly memosPerRead: number | undefined;
  private readerThread: Promise<ReaderThread | undefined> | undefined;
  private reader: ReaderThread | undefined;
  private readonly events = new EventEmitter();
  private readonly verifier: LedgerProofVerifier;
  private readonly writer: LedgerWriter;
  private readonly lanes: SignerLanes;
  private readonly hasHistory: (signer: string) => boolean;

  private constructor(db: Db, options: LedgerOptions) {
    const state = new ChainState(db);
    if (options.dev === false && !options.genesis)
      throw new Error('a ledger outside dev mode needs its genesis authority');
    const workBits = options.freshSignerWorkBits ?? DEFAULT_FRESH_SIGNER_WORK_BITS;
    if (!Number.isInteger(workBits) || workBits < 0 || workBits > MAX_FRESH_SIGNER_WORK_BITS)
      throw new Error(`freshSignerWorkBits must be an integer in 0..${MAX_FRESH_SIGNER_WORK_BITS}`);
    state.genesis = options.genesis;
    const chain = {
      chain_id: loadOrCreateChainId(db, options.genesis),
      fresh_signer_work_bits: workBits,
    };
    const startSlot = Number(getMeta(db, 'slot') ?? '0');
    state.load(startSlot);
    super(
      db,
      state,
      new SlotClock({ mode: options.clock?.mode ?? 'auto', slotMs: options.clock?.slotMs, startSlot }),
      new InjectedFaults(options.random ?? Math.random),
      { memos: options.memosPerRead, leaves: options.leavesPerRead },
      chain,
    );
    this.dev = options.dev ?? true;
    this.devSecret = this.dev ? loadOrCreateDevSecret(options.dataDir) : undefined;
    this.sqlitePath = options.dataDir === undefined ? undefined : join(options.dataDir, DATABASE_FILE);
    this.memosPerRead = options.memosPerRead;
    this.verifier = options.verifier;
    this.lanes = new SignerLanes(options.admission);
    // History: at least one landed, successful transaction (a partial index keeps this one lookup).
    const history = db.prepare('SELECT 1 FROM transactions WHERE signer = ? AND err IS NULL LIMIT 1').pluck();
    this.hasHistory = (signer) => history.get(signer) !== undefined;
    this.events.setMaxListeners(0);
    this.writer = new LedgerWriter(db, state, this.clock, {
      emit: (event) => this.emit(event),
      divergedShards: () => this.faults.divergedShards,
      snapshotEvery: options.snapshotEveryLeaves ?? 50_000,
      isClosed: () => this.closed,
      lastNonce: (signer) => this.lastNonce(signer),
      isProcessed: (signature) => this.readTx(signature) !== null,
    });
    this.clock.onSlot((slot) => this.onSlot(slot));
  }

  /** Opens (or creates) a ledger. A new dev ledger is given its genesis by the caller (see genesis.ts). */
  static open(options: LedgerOptions): Ledger {
    const ledger = new Ledger(openDatabase(options.dataDir), options);
    ledger.clock.start();
    return ledger;
  }

  /**
   * Serves the heavy reads (heavy-reads.ts) from a reader thread with its own read-only connection
   * from now on, off this thread's event loop, where the writer runs. Only a ledger stored in a file
   * can (false otherwise); serveLedger starts it. Ends with close().
   */
  async startReaderThread(): Promise<boolean> {
    if (this.sqlitePath === undefined || this.closed) return false;
    // A thread that cannot start leaves the reads where they were, on this thread.
    this.readerThread ??= ReaderThread.start({ path: this.sqlitePath, memosPerRead: this.memosPerRead }).then(
      async (reader) => {
        if (!this.closed) return (this.reader = reader);
        await reader.close();
        return undefined;
      },
      () => undefined,
    );
    return (await this.readerThread) !== undefined;
  }

  /** How many heavy reads ran on this thread and on the reader thread (tests and benchmarks). */
  get heavyReadsServed(): { inThread: number; readerThread: number } {
    return { inThread: this.inThreadReads.served, readerThread: this.reader?.served ?? 0 };
  }

  protected override heavyReads(): HeavyReads {
    return this.reader?.isAlive ? this.reader : this.inThreadReads;
  }

  get isInitialized(): boolean {
    return this.state.vault !== undefined;
  }

  /* ---------------- writes ---------------- */

  async requestAirdrop(params: ParamsOf<'requestAirdrop'>): Promise<ResultOf<'requestAirdrop'>> {
    this.guard();
    if (!this.dev) throw new RpcError(RPC_ERRORS.notAllowed, 'requestAirdrop is only available in dev mode');
    if (!parseAddress(params.owner))
      throw new RpcError(RPC_ERRORS.invalidParams, 'owner must be a Base58 address');
    if (!this.state.mints.has(params.mint)) throw new RpcError(RPC_ERRORS.invalidParams, 'no such mint');
    if (params.owner === VAULT_ADDRESS)
      throw new RpcError(RPC_ERRORS.invalidParams, 'cannot airdrop to the vault');
    if (
      typeof params.amount !== 'string' ||
      !/^[1-9][0-9]{0,19}$/.test(params.amount) ||
      BigInt(params.amount) > U64_MAX
    ) {
      throw new RpcError(RPC_ERRORS.invalidParams, 'amount must be a positive u64 decimal string');
    }
    const signature = createHash('sha512')
      .update(`airdrop/${this.writer.nextSeq}/${params.owner}/${params.mint}/${params.amount}`)
      .digest('hex');
    await this.writer.airdrop(signature, params.owner, params.mint, BigInt(params.amount));
    return { signature };
  }

  /**
   * Accepts a signed transaction. Cheap checks first (shape, a place for its signer and source,
   * a fresh signer's work, signature, nonce, replay); then, in the signer's lane, the instruction's
   * pre-proof checks and its proofs off the writer (a proof that fails refuses the transaction:
   * it is not stored and its nonce is not used); then it lands now, or later under injected
   * latency. Resolves once accepted (with no latency, once landed); refused ones never land.
   */
  async sendTransaction(
    params: ParamsOf<'sendTransaction'>,
    /** Who sent it: the RPC server passes the remote address; in process it is absent (one local source). */
    context: Partial<CallContext> = {},
  ): Promise<ResultOf<'sendTransaction'>> {
    this.guard();
    const tx = params.transaction;
    const shapeError = checkEnvelope(tx);
    if (shapeError) throw new RpcError(RPC_ERRORS.invalidParams, shapeError);
    const source = sourceOf(context.remoteAddress);
    const kind = this.signerClass(tx.signer);
    // A full lane or share refuses before the digest or the signature costs anything (admit checks again).
    this.lanes.assertRoom(tx.signer, source, kind);
    const digest = transactionDigest(this.chain.chain_id, tx.signer, tx.nonce, tx.instruction);
    if (kind === 'fresh' && leadingZeroBits(digest) < this.chain.fresh_signer_work_bits)
      throw new RpcError(
        RPC_ERRORS.transactionRejected,
        `a signer with no landed successful transaction must choose its nonce so that the transaction digest starts with ${this.chain.fresh_signer_work_bits} zero bits (fresh_signer_work_bits)`,
      );
    if (!signatureHolds(tx, digest))
      throw new RpcError(RPC_ERRORS.transactionRejected, 'signature does not verify for this chain');
    const last = this.lastNonce(tx.signer);
    if (last !== undefined && BigInt(tx.nonce) <= BigInt(last))
      throw new RpcError(RPC_ERRORS.transactionRejected, 'nonce did not advance');
    if (this.readTx(tx.signature))
      throw new RpcError(RPC_ERRORS.transactionRejected, 'transaction already processed');
    if (this.faults.rollReject())
      throw new RpcError(RPC_ERRORS.transactionRejected, 'transaction rejected (injected)');
    const drop = this.faults.rollDrop();
    const { staged, release } = this.lanes.admit(tx.signer, source, kind, () => this.stage(tx));
    let landed: Promise<void>;
    try {
      ({ landed } = await staged);
    } catch (err) {
      release();
      throw err;
    }
    void landed.finally(release);
    if (this.faults.latencySlots === 0) await landed;
    if (drop)
      throw new RpcError(
        RPC_ERRORS.nodeTimeout,
        'no response from the node (injected drop); the transaction may have landed',
      );
    return { signature: tx.signature };
  }

  /** A TEE key (now or at finalized), a signer with a landed successful transaction, or a fresh one. */
  private signerClass(signer: string): SignerClass {
    if (this.isTeeSigner(signer)) return 'tee';
    return this.hasHistory(signer) ? 'history' : 'fresh';
  }

  /** In the signer set now or at finalized (a key being added or retired still settles). */
  private isTeeSigner(signer: string): boolean {
    const now = this.clock.current;
    return (
      this.state.teeKeysAt(now).includes(signer) ||
      this.state.teeKeysAt(now - COMMITMENT_LAG.finalized).includes(signer)
    );
  }

  /**
   * One transaction's turn in its signer's lane: judge its proofs, then hand it to the writer. A
   * withdrawal, join-split or lock_note whose proof was verified and failed is refused here
   * (-32002): junk proofs are never stored and use no nonce; so is a lock_notes whose every proof
   * failed. (A settlement's proofs are judged per match, a lock_notes' per lock: a failed one
   * lands as that entry's InvalidProof and no lock is stored.)
   */
  private async stage(tx: Transaction): Promise<{ landed: Promise<void> }> {
    this.guard();
    const decoded = decodeInstruction(tx.instruction);
    const verdicts = await judgeProofs(this.verifier, this.writer.readOnlyContext(tx.signer), decoded);
    this.guard();
    const refused =
      decoded.ok &&
      ((WHOLE_PROOF_INSTRUCTIONS.has(decoded.name) && verdicts[0] === false) ||
        (MANY_LOCK_INSTRUCTIONS.has(decoded.name) &&
          verdicts.length > 0 &&
          verdicts.every((v) => v === false)));
    if (refused)
      throw new RpcError(
        RPC_ERRORS.transactionRejected,
        `InvalidProof: ${decoded.name}'s proof did not verify (refused, not stored)`,
      );
    const landAt = this.clock.current + this.faults.latencySlots;
    return { landed: this.writer.submit({ tx, decoded, verdicts, landAt }) };
  }

  /* ---------------- slots, events, faults ---------------- */

  private onSlot(slot: number): void {
    setMeta(this.db, 'slot', String(slot));
    this.writer.landDue();
    this.emit({ type: 'slot', slot });
  }

  private emit(event: LedgerEvent): void {
    this.events.emit('event', event);
  }

  subscribe(listener: (event: LedgerEvent) => void): () => void {
    this.events.on('event', listener);
    return () => this.events.off('event', listener);
  }

  /** Dev control: merges the given fields into the fault configuration. */
  async setFaults(faults: ParamsOf<'setFaults'>): Promise<ResultOf<'setFaults'>> {
    if (!this.dev) throw new RpcError(RPC_ERRORS.notAllowed, 'fault injection is only available in dev mode');
    return this.faults.merge(faults);
  }

  getFaults(): FaultConfig {
    return this.faults.current;
  }

  /** Manual clock: moves `slots` slots forward and lands whatever became due. */
  async advanceSlots(params: ParamsOf<'advanceSlots'>): Promise<ResultOf<'advanceSlots'>> {
    if (this.closed) throw new RpcError(RPC_ERRORS.nodeUnavailable, 'ledger is closed');
    if (this.clock.mode !== 'manual') throw new RpcError(RPC_ERRORS.notAllowed, 'the clock is not manual');
    const slots = params.slots;
    if (!Number.isInteger(slots) || slots < 0 || slots > 100_000)
      throw new RpcError(RPC_ERRORS.invalidParams, 'slots must be an integer in 0..100000');
    this.clock.advance(slots);
    await this.idle();
    return this.clock.current;
  }

  /** Waits until every transaction handed to the writer so far has landed. */
  async idle(): Promise<void> {
    await this.writer.enqueue(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.clock.stop();
    await this.idle();
    this.closed = true;
    this.writer.dropPending();
    await this.reader?.close();
    setMeta(this.db, 'slot', String(this.clock.current));
    this.state.saveTreeSnapshot();
    this.db.close();
    this.events.removeAllListeners();
  }
}
