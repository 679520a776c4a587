/**
 * What `startEngine` takes and what it hands back (engine.ts): the options of one boot, and the
 * running engine.
 */
import type { FastifyServerOptions } from 'fastify';
import type { Collateral } from '@phala/dcap-qvl';
import type { BatcherStats, SnarkjsVerificationKey, X25519KeyPair } from '@nightjar/crypto';
import type { CircuitKeysInfo } from '@nightjar/protocol';
import { DEFAULT_SLOT_MS, type LedgerClient } from '@nightjar/ledger';
import type { CredentialHasherOptions } from './accounts/credential-hasher.js';
import type { AccountService } from './accounts/account-service.js';
import type { AttestationPlatform } from './attestation/platform.js';
import type { AttestationIdentity } from './attestation/service.js';
import type { EngineContext } from './http/context.js';
import type { PushHoldOptions, VenueEventBus } from './event-bus.js';
import type { VerifyInputProof } from './orders/inline-order-check.js';
import type { MatchProver, MatchVerifier } from './settlement/match-prover.js';
import type { PipelineOptions } from './settlement/pipeline.js';
import type { SettlementSeam } from './settlement/types.js';
import type { MarketDirectory } from './market-directory.js';
import type { AttestedWorkers } from './prover-pool/types.js';
import type { ProverPoolOptions } from './prover-pool/options.js';

export type { ProverPoolOptions };
import type { EngineDirectoryOptions } from './pg/engine-directory-pg.js';
import type { StreamOptions } from './stream/options.js';
import type { BootCertificate } from './tls.js';

export interface EngineOptions {
  ledger: LedgerClient;
  /** Where `engine.sqlite` lives; in memory when omitted (tests). */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * The symbols this engine is the single writer of (DESIGN 11); default every market on the
   * ledger. Another engine's markets are listed (with its `base_url`) but never booked here.
   */
  markets?: readonly string[];
  /** The base URL clients reach this engine at (its instruments' `base_url`); default its listen URL. */
  publicUrl?: string;
  /** The markets other engines of the venue serve, for `/instruments` (none by default). */
  directory?: MarketDirectory;
  /**
   * The venue's shared PostgreSQL (`postgres://…`, migrated at boot): accounts, revocations,
   * settings and the per-account order and login buckets, shared with every engine on it; and the
   * engines directory (which engine writes which market, and the signer set of all of them), used
   * when no `directory` is given, which needs `publicUrl`. Absent: the SQLite file, one engine.
   */
  store?: string;
  /** The PostgreSQL engines directory's timings (tests shrink them). */
  engineDirectory?: Pick<EngineDirectoryOptions, 'heartbeatMs' | 'takeoverAfterMs' | 'cacheMs'>;
  /**
   * How this engine checks the other engines' settlement keys before registering them as signers
   * (`GET /attestation/settlement-key` at each one's base URL, under this engine's compose hash).
   */
  peerEngines?: PeerEngineOptions;
  /**
   * Tests only: an account service to use instead of building one, so two in-process engines share
   * accounts without a PostgreSQL server (tokens then work at both; with the shared PostgreSQL
   * store they stay per engine).
   */
  accountService?: AccountService;
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
    /** The default simulated platform's PKI, shared by the engines of one venue (one pinned root). */
    pkiDir?: string;
    /** Per-address bucket of the quote routes (default capacity 20, refill 5/s, 10,000 addresses). */
    rateLimit?: AddressRateLimit;
    /** The quote budget of all callers together (default capacity 100, refill 20/s). */
    globalRateLimit?: { capacity: number; refillPerSecond: number };
  };
  /**
   * Remote `nightjar prover` workers (DESIGN 11): the engine admits a worker only after checks
   * (a)–(d) of its attestation, seals jobs only to admitted workers through a PostgreSQL job queue
   * and verifies every proof they return before use. Absent: proofs are made in process and
   * `/prover/*` answers 404; present, in process too while no worker is admitted. Ignored with an
   * injected `matchProver`.
   */
  proverPool?: ProverPoolOptions;
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

export interface PeerEngineOptions {
  /** The platform root peers' quotes must chain to (DER); default this engine's simulated root. */
  rootCa?: Uint8Array;
  /** The engine's own DCAP collateral source for peers' quotes (needed for real CVMs). */
  fetchCollateral?: (quote: Uint8Array) => Promise<Collateral>;
  /** How long a peer may take to answer (default 5,000 ms). */
  timeoutMs?: number;
}

export interface AddressRateLimit {
  capacity: number;
  refillPerSecond: number;
  /** Addresses tracked at once; past it new addresses are refused, limited ones never forgiven. */
  maxAddresses?: number;
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
  /** With `proverPool`: the attested workers (what jobs are sealed to) and this boot's result key. */
  proverPool?: { workers: AttestedWorkers; resultKeys: X25519KeyPair };
  /** The verifier workers' batching counters (undefined when proofs are checked inline). */
  verifierStats(): BatcherStats | undefined;
  /** Every method and path the HTTPS server answers, as Fastify registered them. */
  servedRoutes(): string[];
  close(): Promise<void>;
}
