/**
 * An engine over real HTTPS in front of an in-process dev ledger with a manual clock, and traders
 * that deposit notes and sign orders the way a client would.
 */
import { randomBytes } from 'node:crypto';
import { deriveNote, generateX25519KeyPair, ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import {
  addressToBase58,
  bytesToHex,
  ed25519PublicKey,
  encodeCancelBody,
  encodeOrderBody,
  fieldToHex,
  modifyCancelFields,
  orderSigningFields,
  parseAddress,
  requiredCollateral,
  signCanonical,
  type PlaceOrderBody,
} from '@nightjar/protocol';
import {
  COMMITMENT_LAG,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  mintAddress,
  runAsAdmin,
  chainInfo,
  signTransaction,
  type LedgerClient,
  type LedgerProofVerifier,
} from '@nightjar/ledger';
import { circuitKeysInfo, loadCircuitKeys } from '@nightjar/circuits';
import { startEngine, type EngineOptions, type RunningEngine } from '@nightjar/engine';
import { HttpsClient } from './https-client.js';
import { acceptAllMatchProofs, stubMatchProver } from './match-provers.js';

export const SOL = mintAddress('SOL');
export const USDC = mintAddress('USDC');
export const FAST_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** Proof verification stand-in for tests that are not about proofs: a proof of all 0xee bytes fails. */
export const stubVerifyInputProof = async (proof: Uint8Array) => proof[0] !== 0xee;
/**
 * The ledger's stand-in for every circuit (valid_input_v2, valid_lock, valid_spend_v2, valid_match_v2, valid_join_split_v2): accepts every
 * proof but one starting 0xdd (which the engine's stubs accept).
 */
const acceptAllLedgerProofs: LedgerProofVerifier = { verify: async (_c, proof) => proof[0] !== 0xdd };

export interface Credentials {
  api_key: string;
  api_secret: string;
  passphrase: string;
}

export interface TestVenue {
  ledger: Ledger;
  engine: RunningEngine;
  client: HttpsClient;
  admin: { api_key: string; api_secret: string; passphrase: string };
  /** A fresh account's bearer token (and its credentials, to log in again). */
  newAccount(): Promise<{ token: string; accountId: string; credentials: Credentials }>;
  trader(): Trader;
  /** Advances the chain and lets the engine see every slot. */
  advance(slots: number): Promise<void>;
  close(): Promise<void>;
}

/** `/info`'s circuit_keys of the committed (dev-ceremony) keys, which every test venue runs with. */
export async function devCircuitKeys(): Promise<EngineOptions['circuitKeys']> {
  return circuitKeysInfo(await loadCircuitKeys({ allowDevOnly: true }));
}

/**
 * `settle: true` registers the engine's settlement key with the dev ledger's admin and waits until
 * the signer set holding it is finalized, so matches settle.
 */
export async function startTestVenue(
  options: Partial<EngineOptions> & {
    settle?: boolean;
    ledgerWrap?: (l: LedgerClient) => LedgerClient;
    /** The ledger's proof checks (default: a stand-in that accepts all but 0xdd proofs). */
    ledgerVerifier?: LedgerProofVerifier;
    /** Where the ledger keeps `ledger.sqlite` (default: in memory). */
    ledgerDataDir?: string;
    /** Another venue's ledger to join (a second engine of one venue); it is not closed here. */
    sharedLedger?: Ledger;
  } = {},
): Promise<TestVenue> {
  const { settle, ledgerWrap, ledgerVerifier, ledgerDataDir, sharedLedger, ...engineOptions } = options;
  const devKeys = loadOrCreateDevKeys(undefined);
  const ledger = sharedLedger ?? (await openDevLedger(devKeys, ledgerVerifier, ledgerDataDir));
  const engine = await startEngine({
    ...(await testEngineOptions(ledger, settle ? devKeys.adminSeed : undefined)),
    ledger: ledgerWrap ? ledgerWrap(ledger) : ledger,
    ...engineOptions,
  });
  if (settle) {
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    await engine.context.chain.poll();
  }
  return testVenueOf(ledger, engine, sharedLedger ? async () => {} : () => ledger.close());
}

/**
 * A test engine's options on `ledger`: dev mode on a free port, stand-in proofs and a fast hasher;
 * with the dev ledger's `adminSeed`, it registers its settlement key and settles on short budgets.
 */
export async function testEngineOptions(ledger: Ledger, adminSeed?: Uint8Array): Promise<EngineOptions> {
  return {
    ledger,
    port: 0,
    dev: true,
    hasher: FAST_ARGON2,
    verifyInputProof: stubVerifyInputProof,
    matchProver: stubMatchProver(),
    matchVerifier: acceptAllMatchProofs,
    circuitKeys: await devCircuitKeys(),
    // Pushes at once, so tests read a settlement's events as it confirms; the hold has its own
    // manual-clock test (settlement/fill-push-hold.test.ts).
    fillPushHold: { maxDelayMs: 0 },
    ...(adminSeed
      ? {
          registerTeeKeys: (keys: string[]) =>
            runAsAdmin(ledger, adminSeed, [{ name: 'set_tee_keys', args: { keys } }]),
          settlementTuning: { budgetMs: 3000, rebroadcastAfterMs: 300, parkMs: 200 },
        }
      : {}),
  };
}

/**
 * A TestVenue over a running dev engine on `ledger` (several engines may share one ledger);
 * `closeLedger` runs after the engine closes.
 */
export function testVenueOf(
  ledger: Ledger,
  engine: RunningEngine,
  closeLedger: () => Promise<void> = async () => {},
  /** The venue's admin (engines sharing one accounts store: only the first made the dev admin). */
  admin: Credentials = engine.devAdmin!,
): TestVenue {
  const client = new HttpsClient(engine.url, engine.certificate.certPem);
  const venue: TestVenue = {
    ledger,
    engine,
    client,
    admin,
    async newAccount() {
      const adminToken = await login(client, admin);
      const created = await client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
      if (created.status !== 201) throw new Error(`create account: ${created.status} ${created.text}`);
      const token = await login(client, created.body);
      const { api_key, api_secret, passphrase } = created.body;
      return { token, accountId: created.body.account_id, credentials: { api_key, api_secret, passphrase } };
    },
    trader: () => new Trader(venue),
    async advance(slots) {
      await ledger.advanceSlots({ slots });
    },
    async close() {
      client.close();
      await engine.close();
      await closeLedger();
    },
  };
  return venue;
}

/** The in-process dev ledger with its genesis, a manual clock and 40 slots on. */
async function openDevLedger(
  devKeys: ReturnType<typeof loadOrCreateDevKeys>,
  verifier: LedgerProofVerifier | undefined,
  dataDir: string | undefined,
): Promise<Ledger> {
  const ledger = Ledger.open({
    clock: { mode: 'manual' },
    verifier: verifier ?? acceptAllLedgerProofs,
    // Little work for fresh signers (a wallet's first deposit still grinds for it).
    freshSignerWorkBits: 4,
    ...(dataDir === undefined ? {} : { dataDir }),
  });
  await ensureDevGenesis(ledger, devKeys);
  await ledger.advanceSlots({ slots: 40 });
  return ledger;
}

export async function login(
  client: HttpsClient,
  creds: { api_key: string; api_secret: string; passphrase: string },
): Promise<string> {
  const r = await client.send('/auth/token', {
    body: { api_key: creds.api_key, api_secret: creds.api_secret, passphrase: creds.passphrase },
  });
  if (r.status !== 200) throw new Error(`login: ${r.status} ${r.text}`);
  return r.body.access_token;
}

export interface Note {
  mint: string;
  amount: bigint;
  spendingKey: bigint;
  ownerCommitment: string;
  innerHash: string;
  commitment: string;
  treeId: number;
}

/** A client with one trading key and one viewing key that deposits notes and signs orders. */
export class Trader {
  readonly seed = Uint8Array.from(randomBytes(32));
  readonly tradingKey = bytesToHex(ed25519PublicKey(this.seed));
  readonly wallet = Uint8Array.from(randomBytes(32));
  readonly walletAddress = addressToBase58(ed25519PublicKey(this.wallet));
  readonly viewing = generateX25519KeyPair();
  readonly viewingKey = bytesToHex(this.viewing.publicKey);
  private walletNonce = 0n;
  arrivalNonce = 0n;
  cancelNonce = 0n;

  constructor(private readonly venue: TestVenue) {}

  /** Deposits a note on chain and waits until it is finalized in the engine's mirror. */
  async deposit(mint: string, amount: bigint, treeId = 0): Promise<Note> {
    const note = await this.depositNow(mint, amount, treeId);
    await this.venue.advance(COMMITMENT_LAG.finalized + 1);
    await this.venue.engine.context.trees.checkAgainstChain();
    return note;
  }

  /**
   * Deposits a note on chain without waiting for it to be finalized (many deposits, then one
   * `advance` and `trees.checkAgainstChain()`, as a benchmark does).
   */
  async depositNow(mint: string, amount: bigint, treeId = 0): Promise<Note> {
    const { ledger } = this.venue;
    await ledger.requestAirdrop({ owner: this.walletAddress, mint, amount: amount.toString() });
    const spendingKey = randomFieldElement();
    const inner = randomFieldElement();
    const oc = ownerCommitment(spendingKey);
    const d = deriveNote({ mint: parseAddress(mint)!, amount, ownerCommitment: oc, noteInnerHash: inner });
    const chain = await chainInfo(ledger);
    // The wallet's first deposit is a fresh signer's: it carries the work (the nonce is ground).
    const tx = signTransaction(
      this.wallet,
      this.walletNonce + 1n,
      {
        name: 'deposit',
        args: {
          tree_id: treeId,
          mint,
          amount: amount.toString(),
          note_commitment: fieldToHex(d.noteCommitment),
          opening_hash: fieldToHex(d.openingHash),
        },
      },
      chain,
      { fresh: this.walletNonce === 0n },
    );
    this.walletNonce = BigInt(tx.nonce);
    await ledger.sendTransaction({ transaction: tx });
    const rec = await ledger.getTransaction({ signature: tx.signature });
    if (rec?.err) throw new Error(`deposit: ${rec.err.message}`);
    return {
      mint,
      amount,
      spendingKey,
      ownerCommitment: fieldToHex(oc),
      innerHash: fieldToHex(inner),
      commitment: fieldToHex(d.noteCommitment),
      treeId,
    };
  }

  /** A signed order over `note` (whose value must cover the order), with sensible defaults. */
  order(note: Note, fields: Partial<PlaceOrderBody> = {}): PlaceOrderBody {
    const { engine } = this.venue;
    const shard = engine.context.trees.shard(note.treeId)!;
    this.arrivalNonce += 1n;
    const body: PlaceOrderBody = {
      symbol: 'SOL-USDC',
      side: note.mint === SOL ? 'ask' : 'bid',
      order_type: 'limit',
      amount: 1_000_000_000n,
      price_limit: 150_000_000n,
      expiry_slot: BigInt(engine.context.chain.slot + 1000),
      order_id: bytesToHex(randomBytes(16)),
      arrival_nonce: this.arrivalNonce,
      note_commitment: note.commitment,
      collateral_amount: note.amount,
      owner_commitment: note.ownerCommitment,
      note_inner_hash: note.innerHash,
      merkle_root: fieldToHex(shard.root),
      valid_input_proof: '11'.repeat(256),
      tree_id: note.treeId,
      viewing_pubkey: this.viewingKey,
      session_id: engine.bootSessionId,
      trading_key: this.tradingKey,
      trading_key_signature: '',
      ...fields,
    };
    if (fields.trading_key_signature === undefined) this.sign(body);
    return body;
  }

  /** Signs `body` (in place) with this trader's trading key. */
  sign(body: PlaceOrderBody): PlaceOrderBody {
    body.trading_key_signature = signCanonical(this.seed, encodeOrderBody(orderSigningFields(body)));
    return body;
  }

  /** Collateral a note needs to back `order` exactly (for tests sizing notes). */
  static required(side: 'bid' | 'ask', amount: bigint, price: bigint): bigint {
    return requiredCollateral(side, amount, price, { price_scale: 1_000_000_000n, fee_bps: 10n });
  }

  cancelBody(orderId: string, fields: { cancel_nonce?: bigint; session_id?: string } = {}) {
    this.cancelNonce += 1n;
    const nonce = fields.cancel_nonce ?? this.cancelNonce;
    const session = fields.session_id ?? this.venue.engine.bootSessionId;
    const sig = signCanonical(
      this.seed,
      encodeCancelBody({
        order_id: orderId,
        trading_key: this.tradingKey,
        cancel_nonce: nonce,
        session_id: session,
      }),
    );
    return {
      trading_key: this.tradingKey,
      cancel_nonce: nonce.toString(),
      session_id: session,
      trading_key_signature: sig,
    };
  }

  modifyBody(oldOrderId: string, replacement: PlaceOrderBody) {
    this.cancelNonce += 1n;
    const sig = signCanonical(
      this.seed,
      encodeCancelBody(modifyCancelFields(oldOrderId, this.cancelNonce, replacement)),
    );
    return { cancel_signature: sig, cancel_nonce: this.cancelNonce.toString(), replacement };
  }
}
