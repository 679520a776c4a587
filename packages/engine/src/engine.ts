/**
 * One engine boot: a fresh TLS identity and boot session, the accounts database, the chain view,
 * tree mirror and market books, and the HTTPS server in front of them. Wiring only: the start-up
 * phases are named steps in `boot/` (core, then trading), then the routes and the listen here.
 */
import { join } from 'node:path';
import { listInstruments } from './market-directory.js';
import { EvidenceFiles } from './attestation/evidence.js';
import { AttestationService } from './attestation/service.js';
import type { EngineContext } from './http/context.js';
import { requireAccount, requireAdmin } from './http/routes/accounts.js';
import { registerVenueRoutes } from './http/routes/index.js';
import { servedRoutes } from './http/server.js';
import { systemStatusOf } from './venue/system-status.js';
import { bootCore } from './boot/core.js';
import { attestationLimiter, publicReadLimiter } from './boot/limiters.js';
import { stopEngine } from './boot/stop.js';
import { startTrading } from './boot/trading.js';
import { proverRegistration } from './boot/prover-pool.js';
import type { EngineOptions, RunningEngine } from './engine-options.js';

export {
  DEFAULT_FILL_PUSH_HOLD_MS,
  type AddressRateLimit,
  type EngineOptions,
  type ProverPoolOptions,
  type RunningEngine,
} from './engine-options.js';

export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  const core = await bootCore(options);
  const { now, app, certificate, bootSessionId, accounts, store } = core;
  const { chain, markets, trees } = core.views;
  // Before trading starts, so that the pool's prover can take the registry (the workers it seals to).
  const registration = proverRegistration(options, store.platform, now);
  const trading = await startTrading(options, core, registration);
  const { settlement, drain, gate } = trading;
  const attestation = new AttestationService({
    platform: store.platform,
    bootSessionId,
    tlsSpkiSha256: certificate.spkiSha256,
    signerSetSha256: () => chain.signerSetSha256,
    refreshSignerSet: () => chain.refreshVault(),
  });

  // Known once the server listens (port 0 picks one), unless configured.
  let ownUrl = options.publicUrl ?? '';
  const context: EngineContext = {
    bootSessionId,
    attestation: attestation.identity,
    startedAtPerf: performance.now(),
    now,
    ledger: options.ledger,
    chain,
    markets,
    listedInstruments: async () =>
      listInstruments(markets.all(), markets.own, ownUrl, (await core.directory.directory?.peers()) ?? []),
    trees,
    accounts,
    publicReads: publicReadLimiter(options, now),
    registry: trading.registry,
    intake: trading.intake,
    settlement,
    drain,
    settlementBufferSlots: trading.settlementBufferSlots,
    circuitKeys: options.circuitKeys,
    systemStatus: () => systemStatusOf({ gate, drain, settlement, chain }),
    requireAccount: requireAccount(accounts),
    requireAdmin: requireAdmin(accounts),
    streamHub: trading.stream.hub,
  };
  registerVenueRoutes(app, context, {
    service: attestation,
    evidence: new EvidenceFiles(store.attestationDir ? join(store.attestationDir, 'evidences') : undefined),
    limiter: attestationLimiter(options, now),
    settlementKey: () => trading.pipeline?.teeAddress,
    registration,
  });
  trading.stream.listen(app.server);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 8443 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 8443);

  const url = `https://${options.host ?? '127.0.0.1'}:${port}`;
  if (ownUrl === '') ownUrl = url;
  return {
    url,
    port,
    bootSessionId,
    certificate,
    ...(core.devAdmin ? { devAdmin: core.devAdmin } : {}),
    context,
    events: trading.events,
    attestation: {
      platform: store.platform,
      identity: attestation.identity,
      ...(store.platform.rootCa ? { rootCa: store.platform.rootCa } : {}),
    },
    ...(registration
      ? { proverPool: { workers: registration.registry, resultKeys: registration.resultKeys } }
      : {}),
    verifierStats: () => core.verifiers.batcher?.stats(),
    servedRoutes: () => servedRoutes(app),
    close: () => stopEngine(options, core, trading),
  };
}
