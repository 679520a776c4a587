/**
 * Start-up: settlement. Its outcomes reach the orders through `SettlementEffects` (each one a
 * command to its market's writer); by default the real pipeline settles on the ledger with the
 * boot's TEE key, its journal and a match prover, warmed before the markets open; a test's
 * stand-in replaces all of it.
 */
import type { AdaptiveBatcher } from '@nightjar/crypto';
import type { ProverRegistration } from '../prover-pool/registration.js';
import type { AttestationPlatform } from '../attestation/platform.js';
import type { EngineOptions } from '../engine-options.js';
import type { MarketRegistry } from '../markets.js';
import type { OrderEffects, SettlementSeam } from '../settlement/types.js';
import { SettlementJournal } from '../settlement/journal.js';
import { NoteMatchProver, type MatchProver, type MatchVerifier } from '../settlement/match-prover.js';
import { SettlementPipeline, type PipelineLog } from '../settlement/pipeline.js';
import type { PathMirror } from '../settlement/input-path.js';
import type { SignerSetScope } from '../settlement/signer-registration.js';
import { hadTeeKey, loadTeeKey } from '../settlement/tee-key.js';
import type { ChainView } from '../chain-view.js';
import { warmMatchProver } from './prover-warmup.js';
import { startProverPool, type ProverPool } from '../prover-pool/pool-boot.js';

export interface SettlementParts {
  settlement: SettlementSeam;
  /** The real pipeline and what it owns (none with a stand-in). */
  pipeline?: SettlementPipeline;
  journal?: SettlementJournal;
  matchProver?: MatchProver;
  /** With `proverPool`: what the worker registration routes hand out. */
  proverPool?: ProverPool;
}

export interface SettlementBootDeps {
  platform: AttestationPlatform;
  chain: ChainView;
  markets: MarketRegistry;
  trees: PathMirror;
  log: PipelineLog;
  now(): number;
  effects: OrderEffects;
  matchBatcher: AdaptiveBatcher | undefined;
  /** With `proverPool`: the worker registration (the workers jobs are sealed to, the result key). */
  registration?: ProverRegistration;
  /** Several engines: the signer set is the directory's, decided under its lock. */
  signerSetScope: SignerSetScope | undefined;
}

export async function startSettlement(
  options: EngineOptions,
  d: SettlementBootDeps,
): Promise<SettlementParts> {
  if (options.settlement) return { settlement: options.settlement };
  const ownProver = options.matchProver
    ? undefined
    : new NoteMatchProver({
        ...(options.matchProverWorkers === undefined ? {} : { workers: options.matchProverWorkers }),
        ...(options.matchProverSingleThread === undefined
          ? {}
          : { singleThread: options.matchProverSingleThread }),
      });
  const mb = d.matchBatcher;
  const matchVerifier: MatchVerifier = options.matchVerifier ?? {
    verify: (proof, publicSignals) => mb!.verify(proof, publicSignals, 'valid_match_v2'),
  };
  // The journal is created with the key: a key without a journal means the journal was lost.
  const journal = new SettlementJournal(options.dataDir, hadTeeKey(options.dataDir));
  const key = await loadTeeKey(d.platform, options.dataDir);
  // The pool's engine id is the settlement key's address: stable for this data directory.
  if (d.registration) d.registration.engineId = key.address;
  // The registration exists exactly when `proverPool` is set: the pool seals to its workers.
  const proverPool =
    options.proverPool && d.registration && ownProver
      ? await startProverPool(options.proverPool, {
          engineId: key.address,
          workers: d.registration.registry,
          resultKey: d.registration.resultKeys,
          fallback: ownProver,
          verifyMatch: matchVerifier,
          dev: options.dev === true,
        })
      : undefined;
  const matchProver = proverPool?.prover ?? options.matchProver ?? ownProver!;
  const proverConcurrency = proverPool
    ? (options.proverPool?.concurrency ?? 32)
    : (ownProver?.concurrency ?? options.matchProverConcurrency ?? 1);
  const pipeline = new SettlementPipeline({
    ledger: options.ledger,
    chain: d.chain,
    key,
    journal,
    instrument: (marketId) => d.markets.list().find((m) => m.market_id === marketId),
    trees: d.trees,
    prover: matchProver,
    proverConcurrency,
    verifier: matchVerifier,
    log: d.log,
    now: d.now,
    effects: d.effects,
    ...(options.registerTeeKeys ? { registerTeeKeys: options.registerTeeKeys } : {}),
    ...(d.signerSetScope ? { signerSetScope: d.signerSetScope } : {}),
    ...(options.settlementTuning ?? {}),
    // The SIGKILL test hook is a dev shortcut: a production engine ignores it.
    ...(options.dev && process.env.NIGHTJAR_CRASH_AT ? { crashAt: process.env.NIGHTJAR_CRASH_AT } : {}),
  });
  // Before the markets open: the first auction's proofs find the prover warm.
  await warmMatchProver(matchProver, d.log, (ms) => pipeline.seedProofTime(ms));
  return { settlement: pipeline, pipeline, journal, matchProver, ...(proverPool ? { proverPool } : {}) };
}
