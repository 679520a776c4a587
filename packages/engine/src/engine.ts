/**
 * One engine boot: a fresh TLS identity and boot session, the accounts database, the chain view,
 * tree mirror and market books, and the HTTPS server in front of them.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyServerOptions } from 'fastify';
import {
  AdaptiveBatcher,
  ORDER_CHECK_PUBLIC_INPUTS,
  type BatcherStats,
  type SnarkjsVerificationKey,
} from '@nightjar/crypto';
import { loadVerificationKey } from '@nightjar/circuits';
import {
  ensurePrivateDir,
  preparePrivateDatabase,
  RATE_LIMIT,
  SETTLEMENT_BUFFER_SLOTS,
  type CircuitKeysInfo,
} from '@nightjar/protocol';
import { DEFAULT_SLOT_MS, type LedgerClient } from '@nightjar/ledger';
import { AccountService } from './accounts/account-service.js';
import type { CredentialHasherOptions } from './accounts/credential-hasher.js';
import { loadTokenKey } from './accounts/token-key.js';
import { computeComposeHash } from './attestation/compose-hash.js';
import { EvidenceFiles } from './attestation/evidence.js';
import type { AttestationPlatform } from './attestation/platform.js';
import { AttestationService, type AttestationIdentity } from './attestation/service.js';
import { SimulatedPlatform } from './attestation/simulated-platform.js';
import { ChainView } from './chain-view.js';
import type { EngineContext } from './http/context.js';
import { requireAccount, requireAdmin } from './http/routes/accounts.js';
import { registerVenueRoutes } from './http/routes/index.js';
import { buildHttpServer, servedRoutes } from './http/server.js';
import { AddressLimiter } from './limits/address-limiter.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { MarketRegistry } from './markets.js';
import { VenueEventBus, type PushHoldOptions } from './event-bus.js';
import { systemClock } from './stream/clock.js';
import { inlineOrderChecker, type VerifyInputProof } from './orders/inline-order-check.js';
import { Intake, type IntakeDeps } from './orders/intake.js';
import { MarketEngine } from './orders/market-engine.js';
import { MarketWriter } from './orders/market-writer.js';
import { OrderRegistry } from './orders/order-registry.js';
import { SettlementEffects } from './orders/settlement-effects.js';
import { SettlementJournal } from './settlement/journal.js';
import { NoteMatchProver, type MatchProver, type MatchVerifier } from './settlement/match-prover.js';
import { SettlementPipeline, type PipelineOptions } from './settlement/pipeline.js';
import type { SettlementSeam } from './settlement/types.js';
import { hadTeeKey, loadTeeKey } from './settlement/tee-key.js';
import type { StreamOptions } from './stream/options.js';
import { StreamService } from './stream/stream-service.js';
import { generateBootCertificate, type BootCertificate } from './tls.js';
import { TreeMirror } from './tree-mirror.js';
import { NoteStateMirror } from './note-states.js';
import { LockFailureThrottle } from './orders/lock-failure-throttle.js';
import { Drain } from './venue/drain.js';
import { systemStatusOf } from './venue/system-status.js';
import { TradingGate } from './venue/trading-gate.js';

export interface EngineOptions {
  ledger: LedgerClient;
  /** Where `engine.sqlite` lives; in memory when omitted (tests). */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  tokenTtlSeconds?: number;
  /** Wall clock in Unix ms (tests inject one to make token expiry exact). */
  now?: () => number;
  /** Dev mode: create a dev admin on first boot and return its credentials; honour test hooks. */
  dev?: boolean;
  /**
   * VALID_INPUT v2 proof check run on the main thread (tests); by default every per-order check
   * runs in a worker-pool batcher over `validInputKey` (the `valid_input_v2` key).
   */
  verifyInputProof?: VerifyInputProof;
  validInputKey?: SnarkjsVerificationKey;
  /** SHA-256 of the venue's verification key files and whether they are dev-only (for `/info`). */
  circuitKeys: CircuitKeysInfo;
  verifierWorkers?: number;
  /**
   * Where VALID_MATCH v2 and VALID_LOCK proofs are made (tests inject a stand-in); by default the
   * circuits package's NoteProver in worker threads: `matchProverWorkers` of them (default one per
   * core, each single-threaded: the most proofs per second measured here), each on one core when
   * `matchProverSingleThread` (default: when there are several).
   */
  matchProver?: MatchProver;
  matchProverWorkers?: number;
  matchProverSingleThread?: boolean;
  /** Proofs handed to an injected `matchProver` at once (default 1). */
  matchProverConcurrency?: number;
  /**
   * Checks each match proof before it is sent (tests inject a stand-in); by default the verifier
   * workers over `validMatchKey` (dev mode: the committed dev key when it is not given).
   */
  matchVerifier?: MatchVerifier;
  validMatchKey?: SnarkjsVerificationKey;
  /** A settlement stand-in (tests only); by default the real pipeline settles on `ledger`. */
  settlement?: SettlementSeam;
  /** Sets the ledger's signer set to this boot's key (dev mode: the dev ledger's admin; tests). */
  registerTeeKeys?: (keys: string[]) => Promise<void>;
  /** Pipeline tuning (tests shrink budgets); `crashAt` is the SIGKILL test hook. */
  settlementTuning?: Pick<
    PipelineOptions,
    'budgetMs' | 'rebroadcastAfterMs' | 'parkMs' | 'maxOpenBatches' | 'crashAt'
  >;
  settlementBufferSlots?: bigint;
  hasher?: CredentialHasherOptions;
  loginRateLimit?: { capacity: number; refillPerSecond: number };
  orderRateLimit?: { capacity: number; refillPerSecond: number };
  attestation?: {
    /** The TEE platform; by default the simulated one, its PKI in `<dataDir>/attestation`. */
    platform?: AttestationPlatform;
    /** Per-address bucket of the quote routes (default capacity 20, refill 5/s, 10,000 addresses). */
    rateLimit?: AddressRateLimit;
    /** The quote budget of all callers together (default capacity 100, refill 20/s). */
    globalRateLimit?: { capacity: number; refillPerSecond: number };
  };
  /** Per-address bucket of public reads (`/tree/root`); default the account bucket's 40 and 20/s. */
  publicReadRateLimit?: AddressRateLimit;
  logger?: FastifyServerOptions['logger'];
  /** `/v1/stream` caps and deadlines clock (the spec's values by default; tests shrink them). */
  stream?: StreamOptions;
  /**
   * The random hold on a confirmed match's fill push and order event (`VenueEventBus.publishHeld`):
   * uniform, crypto-random, up to `maxDelayMs` (default two slots, 800 ms; 0 turns it off). Tests
   * may pass a manual clock and a random source; the default timers are real (Date.now).
   */
  fillPushHold?: Partial<PushHoldOptions>;
}

/** Default largest fill-push hold: two slots. */
export const DEFAULT_FILL_PUSH_HOLD_MS = 2 * DEFAULT_SLOT_MS;

export interface AddressRateLimit {
  capacity: number;
  refillPerSecond: number;
  /** Addresses tracked at once; past it new addresses are refused, limited ones never forgiven. */
  maxAddresses?: number;
}

const DEFAULT_MAX_ADDRESSES = 10_000;

function perAddressLimiter(limit: AddressRateLimit, now: () => number): RateLimiter {
  return new RateLimiter({
    capacity: limit.capacity,
    refillPerSecond: limit.refillPerSecond,
    maxEntries: limit.maxAddresses ?? DEFAULT_MAX_ADDRESSES,
    now,
  });
}

export interface RunningEngine {
  url: string;
  port: number;
  bootSessionId: string;
  certificate: BootCertificate;
  /** Dev admin credentials, only on the boot that created them. */
  devAdmin?: { api_key: string; api_secret: string; passphrase: string };
  context: EngineContext;
  events: VenueEventBus;
  attestation: {
    platform: AttestationPlatform;
    identity: AttestationIdentity;
    /** Simulated platform only: the root CA certificate clients pin (DER, and its file). */
    rootCa?: { path: string | undefined; der: Uint8Array };
  };
  /** The verifier workers' batching counters (undefined when proofs are checked inline). */
  verifierStats(): BatcherStats | undefined;
  /** Every method and path the HTTPS server answers, as Fastify registered them. */
  servedRoutes(): string[];
  close(): Promise<void>;
}

export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  if (!options.dev && options.circuitKeys.dev_only)
    throw new Error(
      'a production engine (dev: false) refuses dev-ceremony circuit keys: load a real ceremony’s',
    );
  const now = options.now ?? Date.now;
  const certificate = await generateBootCertificate();
  const bootSessionId = randomBytes(32).toString('hex');
  // Never adopt a data directory another user made or may write to (its files are 0600, it 0700).
  if (options.dataDir) ensurePrivateDir(options.dataDir);
  const attestationDir = options.dataDir ? join(options.dataDir, 'attestation') : undefined;
  const platform =
    options.attestation?.platform ??
    (await SimulatedPlatform.open({ dir: attestationDir, composeHash: computeComposeHash() }));
  const dbFile = options.dataDir ? join(options.dataDir, 'engine.sqlite') : undefined;
  if (dbFile) preparePrivateDatabase(dbFile);
  const db = new Database(dbFile ?? ':memory:');
  if (options.dataDir) db.pragma('journal_mode = WAL');

  const accounts = new AccountService({
    db,
    now,
    tokenKey: await loadTokenKey(platform, options.dataDir),
    ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
    ...(options.hasher === undefined ? {} : { hasher: options.hasher }),
    ...(options.loginRateLimit === undefined ? {} : { loginRateLimit: options.loginRateLimit }),
  });
  const devAdmin = options.dev ? await accounts.ensureDevAdmin() : undefined;

  const chain = new ChainView(options.ledger);
  await chain.start();
  chain.startPolling();
  const markets = await MarketRegistry.load(options.ledger);
  const trees = new TreeMirror(options.ledger);
  await trees.start(chain.numTrees);
  const notes = new NoteStateMirror(options.ledger, (msg, fields) => app.log.warn(fields ?? {}, msg));
  const lockFailures = new LockFailureThrottle();

  // The match proofs' local check shares the intake's verifier workers when there are any.
  const matchKey =
    options.settlement || options.matchVerifier
      ? undefined
      : (options.validMatchKey ?? (options.dev ? await loadVerificationKey('valid_match_v2') : undefined));
  if (!options.settlement && !options.matchVerifier && !matchKey)
    throw new Error('startEngine needs validMatchKey or matchVerifier to check match proofs');
  const workerOptions = options.verifierWorkers === undefined ? {} : { size: options.verifierWorkers };
  let batcher: AdaptiveBatcher | undefined;
  let matchBatcher: AdaptiveBatcher | undefined;
  let checkOrder: IntakeDeps['checkOrder'];
  if (options.verifyInputProof) {
    checkOrder = inlineOrderChecker(options.verifyInputProof);
    if (matchKey)
      matchBatcher = await AdaptiveBatcher.create({
        keys: { valid_match_v2: matchKey },
        ...workerOptions,
        defaultKeyId: 'valid_match_v2',
      });
  } else {
    if (!options.validInputKey) throw new Error('startEngine needs validInputKey or verifyInputProof');
    // Intake verifies VALID_INPUT v2 ([use_tag, merkle_root, nullifier]); any other key cannot serve.
    if (options.validInputKey.nPublic !== ORDER_CHECK_PUBLIC_INPUTS)
      throw new Error('validInputKey must be the VALID_INPUT v2 key (valid_input_v2, 3 public inputs)');
    batcher = await AdaptiveBatcher.create({
      keys: { valid_input_v2: options.validInputKey, ...(matchKey ? { valid_match_v2: matchKey } : {}) },
      ...workerOptions,
      defaultKeyId: 'valid_input_v2',
    });
    if (matchKey) matchBatcher = batcher;
    const b = batcher;
    checkOrder = (check) => b.checkOrder(check, 'valid_input_v2');
  }

  const app = buildHttpServer({
    certificate,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });

  const settlementBufferSlots = options.settlementBufferSlots ?? SETTLEMENT_BUFFER_SLOTS;
  const registry = new OrderRegistry();
  const events = new VenueEventBus(
    (err) =>
      app.log.error({ err: err instanceof Error ? err.message : String(err) }, 'event bus listener failed'),
    {
      maxDelayMs: options.fillPushHold?.maxDelayMs ?? DEFAULT_FILL_PUSH_HOLD_MS,
      clock: options.fillPushHold?.clock ?? systemClock(),
      ...(options.fillPushHold?.random ? { random: options.fillPushHold.random } : {}),
    },
  );
  // Each market's single writer, by symbol: filled below, once settlement exists to take batches;
  // settlement's order effects reach the markets through it.
  const marketEngines = new Map<string, MarketWriter>();
  const orderEffects = new SettlementEffects({
    registry,
    events,
    marketBySymbol: marketEngines,
    now,
    unusableNote: (accountId, nullifier, state) => {
      notes.learn(nullifier, state, chain.slot);
      lockFailures.record(accountId, chain.slot);
    },
  });
  let pipeline: SettlementPipeline | undefined;
  let journal: SettlementJournal | undefined;
  let matchProver: MatchProver | undefined;
  if (!options.settlement) {
    const ownProver = options.matchProver
      ? undefined
      : new NoteMatchProver({
          ...(options.matchProverWorkers === undefined ? {} : { workers: options.matchProverWorkers }),
          ...(options.matchProverSingleThread === undefined
            ? {}
            : { singleThread: options.matchProverSingleThread }),
        });
    matchProver = options.matchProver ?? ownProver!;
    const mb = matchBatcher;
    const matchVerifier: MatchVerifier = options.matchVerifier ?? {
      verify: (proof, publicSignals) => mb!.verify(proof, publicSignals, 'valid_match_v2'),
    };
    // The journal is created with the key: a key without a journal means the journal was lost.
    journal = new SettlementJournal(options.dataDir, hadTeeKey(options.dataDir));
    const key = await loadTeeKey(platform, options.dataDir);
    pipeline = new SettlementPipeline({
      ledger: options.ledger,
      chain,
      key,
      journal,
      instrument: (marketId) => markets.list().find((m) => m.market_id === marketId),
      trees,
      prover: matchProver,
      proverConcurrency: ownProver?.concurrency ?? options.matchProverConcurrency ?? 1,
      verifier: matchVerifier,
      log: app.log,
      now,
      effects: orderEffects,
      ...(options.registerTeeKeys ? { registerTeeKeys: options.registerTeeKeys } : {}),
      ...(options.settlementTuning ?? {}),
      // The SIGKILL test hook is a dev shortcut: a production engine ignores it.
      ...(options.dev && process.env.NIGHTJAR_CRASH_AT ? { crashAt: process.env.NIGHTJAR_CRASH_AT } : {}),
    });
  }
  const settlement: SettlementSeam = options.settlement ?? pipeline!;
  const drain = new Drain({ now, openOrders: () => registry.liveCount, settlement });
  const gate = new TradingGate({ drain, chain });
  let batchId = pipeline?.nextBatchIdSeed() ?? 0n;
  for (const instrument of markets.list()) {
    const market = new MarketEngine(instrument, {
      registry,
      settlement,
      settlementBufferSlots,
      now,
      nextBatchId: () => ++batchId,
      spentNotes: notes,
      ...(pipeline ? { firstMatchId: pipeline.firstMatchId(instrument.market_id) } : {}),
    });
    marketEngines.set(instrument.symbol, new MarketWriter(market, { events, settlement }));
  }
  const rateLimiter = new RateLimiter({
    ...(options.orderRateLimit ?? {
      capacity: RATE_LIMIT.capacity,
      refillPerSecond: RATE_LIMIT.refillPerSecond,
    }),
    now,
  });
  await notes.start();
  await pipeline?.start();

  const intake = new Intake({
    bootSessionId,
    currentSlot: () => BigInt(chain.slot),
    numTrees: () => trees.numTrees,
    settlementBufferSlots,
    markets: marketEngines,
    registry,
    isRecentRoot: (t, root) => trees.isRecentRoot(t, root),
    checkOrder,
    rateLimiter,
    tradingPausedReason: () => gate.pausedReason(),
    noteState: (nullifier) => ({
      state: notes.state(nullifier, chain.slot),
      lockedUntilSlot: notes.lockedUntil(nullifier, chain.slot),
    }),
    lockFailureCoolDown: (accountId) => {
      const slots = lockFailures.coolingDown(accountId, chain.slot);
      return slots === undefined ? undefined : (slots * DEFAULT_SLOT_MS) / 1000;
    },
  });

  const stream = new StreamService({
    accounts,
    intake,
    events,
    now,
    log: app.log,
    ...(options.stream === undefined ? {} : { options: options.stream }),
  });
  // Every finalized leaf the mirror applies goes to the `tree` channel, one push per leaf, in order.
  const offLeaves = trees.onLeaves((applied) => {
    applied.values.forEach((value, i) =>
      events.publish({
        channel: 'tree',
        body: {
          tree_id: applied.treeId,
          leaf_index: BigInt(applied.firstLeafIndex + i),
          value,
          merkle_root: applied.merkleRoot,
          slot: BigInt(applied.slot),
        },
      }),
    );
  });
  const offReset = trees.onReset((treeId) => events.publish({ channel: 'tree-reset', treeId }));

  const offSlot = chain.onSlot((slot) => {
    for (const m of marketEngines.values()) m.onSlot(BigInt(slot));
  });

  const attestation = new AttestationService({
    platform,
    bootSessionId,
    tlsSpkiSha256: certificate.spkiSha256,
    signerSetSha256: () => chain.signerSetSha256,
    refreshSignerSet: () => chain.refreshVault(),
  });

  const context: EngineContext = {
    bootSessionId,
    attestation: attestation.identity,
    startedAtPerf: performance.now(),
    now,
    ledger: options.ledger,
    chain,
    markets,
    trees,
    accounts,
    publicReads: new AddressLimiter(
      perAddressLimiter(
        options.publicReadRateLimit ?? {
          capacity: RATE_LIMIT.capacity,
          refillPerSecond: RATE_LIMIT.refillPerSecond,
        },
        now,
      ),
    ),
    registry,
    intake,
    settlement,
    drain,
    settlementBufferSlots,
    circuitKeys: options.circuitKeys,
    systemStatus: () => systemStatusOf({ gate, drain, settlement, chain }),
    requireAccount: requireAccount(accounts),
    requireAdmin: requireAdmin(accounts),
    streamHub: stream.hub,
  };

  registerVenueRoutes(app, context, {
    service: attestation,
    evidence: new EvidenceFiles(attestationDir ? join(attestationDir, 'evidences') : undefined),
    limiter: new AddressLimiter(
      perAddressLimiter(options.attestation?.rateLimit ?? { capacity: 20, refillPerSecond: 5 }, now),
      new RateLimiter({
        ...(options.attestation?.globalRateLimit ?? { capacity: 100, refillPerSecond: 20 }),
        maxEntries: 1,
        now,
      }),
    ),
  });
  stream.listen(app.server);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 8443 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 8443);

  return {
    url: `https://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    bootSessionId,
    certificate,
    ...(devAdmin ? { devAdmin } : {}),
    context,
    events,
    attestation: {
      platform,
      identity: attestation.identity,
      ...(platform.rootCa ? { rootCa: platform.rootCa } : {}),
    },
    verifierStats: () => batcher?.stats(),
    servedRoutes: () => servedRoutes(app),
    async close() {
      // Held fill pushes go out to the sessions still open; then sessions: their
      // cancel-on-disconnect still finds the books running.
      events.releaseHeld();
      await stream.close();
      offLeaves();
      offReset();
      gate.stopMatching();
      offSlot();
      trees.stop();
      notes.stop();
      chain.stop();
      await app.close();
      await pipeline?.close();
      // After the pipeline: a proof it no longer awaits may fail without rejecting its match.
      await matchProver?.close();
      await options.matchVerifier?.close?.();
      await batcher?.close();
      if (matchBatcher !== batcher) await matchBatcher?.close();
      journal?.close();
      db.close();
    },
  };
}
