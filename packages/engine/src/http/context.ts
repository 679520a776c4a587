/**
 * The services every route handler may use, built once per boot by engine.ts; `RunningEngine.context`
 * also hands it to embedders (the CLI's `start`) and tests. Every member has a reader.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { CircuitKeysInfo, SystemStatusResponse } from '@nightjar/protocol';
import type { LedgerClient } from '@nightjar/ledger';
import type { AccountService } from '../accounts/account-service.js';
import type { AddressLimiter } from '../limits/address-limiter.js';
import type { AttestationIdentity } from '../attestation/service.js';
import type { ChainView } from '../chain-view.js';
import type { MarketRegistry } from '../markets.js';
import type { Instrument } from '@nightjar/protocol';
import type { Intake } from '../orders/intake.js';
import type { OrderRegistry } from '../orders/order-registry.js';
import type { SettlementSeam } from '../settlement/types.js';
import type { StreamHub } from '../stream/hub.js';
import type { TreeMirror } from '../tree-mirror.js';
import type { Drain } from '../venue/drain.js';

export interface EngineContext {
  /** 64 hex characters, fresh each boot; signed into every order. */
  bootSessionId: string;
  /** The attested identity of this engine (platform, app and instance hashes, compose hash). */
  attestation: AttestationIdentity;
  startedAtPerf: number;
  /** Wall clock in Unix ms (injectable for tests). */
  now(): number;
  ledger: LedgerClient;
  chain: ChainView;
  markets: MarketRegistry;
  /** `/instruments`: every market of the venue, each with its serving engine's `base_url`. */
  listedInstruments(): Promise<Instrument[]>;
  trees: TreeMirror;
  accounts: AccountService;
  /** Per-address bucket of the public reads that cost work (`/tree/root`), with the account bucket's weights. */
  publicReads: AddressLimiter;
  registry: OrderRegistry;
  intake: Intake;
  settlement: SettlementSeam;
  drain: Drain;
  settlementBufferSlots: bigint;
  /** SHA-256 of the verification keys this venue runs with, shown on `/info`. */
  circuitKeys: CircuitKeysInfo;
  systemStatus(): SystemStatusResponse;
  /** preHandlers: a valid bearer token (any account) / an admin's token. */
  requireAccount: preHandlerAsyncHookHandler;
  requireAdmin: preHandlerAsyncHookHandler;
  /** `/v1/stream` sessions and caps (fill memos reach them over the event bus, like every event). */
  streamHub: StreamHub;
}
