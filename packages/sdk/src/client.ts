/**
 * `createClient`: a verified, logged-in venue session (core/session.ts) with the wallet that owns
 * the notes and keys, the prover, and the fresh-note hold: the client every action takes first.
 */
import { availableParallelism } from 'node:os';
import { NoteProver } from '@nightjar/circuits';
import { reportingProver, type ProofProgress, type Prover } from './core/prover.js';
import { venueEngines, type EngineEntry } from './core/engines.js';
import { openVenueSession, type VenueSession } from './core/session.js';
import type { VenueSessionParameters } from './core/session-options.js';
import { FreshNoteHold, type FreshNoteHoldOptions } from './wallet/fresh-note-hold.js';
import type { Wallet } from './wallet/wallet.js';

export type {
  JoinSplitProofResult,
  ProofKind,
  ProofProgress,
  Prover,
  SpendV2ProofResult,
} from './core/prover.js';
import { NIGHTJAR_ERROR__CLIENT_CONFIG, NightjarError } from './core/errors/index.js';
export type { ClientRequestOptions } from './core/session.js';
export type { EngineEntry } from './core/engines.js';
export type { Credentials, RetryInfo } from './core/session-options.js';

/** Options of `createClient`. */
export interface CreateClientParameters extends VenueSessionParameters {
  /** The wallet that owns the notes and keys; needed by every trading and wallet action. */
  wallet?: Wallet;
  /** Prover; default a `NoteProver` with one single-threaded worker per core, started on first use. */
  prover?: Prover;
  /**
   * A random hold before a newly deposited note may back an order (default off): each deposit
   * note waits a uniform, crypto-random `0..maxMs` after it is final, so a deposit's finality does
   * not name the order it backs (see wallet/fresh-note-hold.ts).
   */
  freshNoteHold?: FreshNoteHoldOptions;
}

/** A verified, logged-in venue client; pass it to every action. */
export interface Client extends VenueSession {
  /** The fresh-note hold (`freshNoteHold`), when one was asked for. */
  readonly noteHold?: FreshNoteHold;
  /** The wallet (throws when the client was created without one). */
  readonly wallet: Wallet;
  readonly hasWallet: boolean;
  /** The prover (created on first use); it tells `onProof` listeners when each proof starts and ends. */
  prover(): Prover;
  /** Calls `listener` when a proof starts and when it is done; returns the unsubscribe. */
  onProof(listener: (e: ProofProgress) => void): () => void;
  /**
   * The session of the engine serving `symbol`: the instrument's `base_url`, opened (verified,
   * logged in) on first use; this client's own session for a market without one.
   */
  engineFor(symbol: string): Promise<VenueSession>;
  /** Every engine of the venue (this client's own first), each with its session or its error. */
  engines(): Promise<EngineEntry[]>;
  /** Closes sockets, the prover (if the client made it) and the ledger client (if it made it). */
  close(): Promise<void>;
}

/** The client `createClient` resolves with. */
export type CreateClientReturnType = Client;

/**
 * Verifies the venue's transport, logs in and returns the client.
 *
 * @example
 * const client = await createClient({ baseUrl, pinnedRoot, composeHash, ledgerUrl, credentials, wallet });
 */
export async function createClient(params: CreateClientParameters): Promise<CreateClientReturnType> {
  const session = await openVenueSession(params);
  const proofListeners = new Set<(e: ProofProgress) => void>();
  let made: Prover | undefined;
  let prover: Prover | undefined;
  const noteHold = params.freshNoteHold ? new FreshNoteHold(params.freshNoteHold) : undefined;
  const client: Client = {
    baseUrl: session.baseUrl,
    transport: session.transport,
    ledger: session.ledger,
    nonces: session.nonces,
    slotMs: session.slotMs,
    ...(noteHold ? { noteHold } : {}),
    get accountId() {
      return session.accountId;
    },
    get wallet(): Wallet {
      if (!params.wallet)
        throw new NightjarError(NIGHTJAR_ERROR__CLIENT_CONFIG, {
          detail: 'this client has no wallet (pass `wallet` to createClient)',
        });
      return params.wallet;
    },
    get hasWallet() {
      return params.wallet !== undefined;
    },
    prover() {
      const inner =
        params.prover ??
        (made ??= new NoteProver({ workers: Math.max(1, availableParallelism()), singleThread: true }));
      return (prover ??= reportingProver(inner, (e) => proofListeners.forEach((l) => l(e))));
    },
    onProof(listener) {
      proofListeners.add(listener);
      return () => proofListeners.delete(listener);
    },
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    tokenExpiry: session.tokenExpiry,
    refreshLeadMs: session.refreshLeadMs,
    bootSessionId: session.bootSessionId,
    request: session.request,
    instrument: session.instrument,
    engineFor: (symbol) => engines.forSymbol(symbol),
    engines: () => engines.all(),
    async close() {
      await engines.close();
      await session.close();
      if (made) await made.close();
    },
  };
  // The client is its own engine's session (the markets without `base_url`, and old venues).
  const engines = venueEngines(client, params);
  return client;
}
