/**
 * The engine as its own process for the SIGKILL tests: talks to the test's ledger over JSON-RPC
 * (so the chain outlives the engine) and prints one JSON line when it serves. `NIGHTJAR_CRASH_AT`
 * (read by the engine) makes the settlement pipeline SIGKILL this process at that stage;
 * `NIGHTJAR_TEST_PROOFS_FAIL=1` makes every match proof fail (a settlement failure after the locks).
 * `NIGHTJAR_TEST_STORE` (postgres://…): the venue's shared PostgreSQL (accounts, buckets and the
 * engines directory). One engine of several: `NIGHTJAR_TEST_PORT` (its public URL
 * https://127.0.0.1:PORT) and `NIGHTJAR_TEST_MARKETS` (comma separated symbols it writes);
 * `NIGHTJAR_TEST_PKI_DIR`: the venue's shared simulated PKI (engines check each other's keys).
 * `NIGHTJAR_TEST_NO_ORDER_LIMIT=1` lifts the order bucket's refusals (benchmarks).
 */
import { RpcLedgerClient } from '@nightjar/ledger';
import { startEngine } from '@nightjar/engine';
import { devCircuitKeys, FAST_ARGON2 } from './engine-venue.js';
import { acceptAllMatchProofs, stubMatchProver } from './match-provers.js';

const matchProver = stubMatchProver();
if (process.env.NIGHTJAR_TEST_PROOFS_FAIL === '1') matchProver.failWhen(() => true);

const ledger = new RpcLedgerClient(process.env.LEDGER_URL!);
await ledger.connectEvents();
const port = Number(process.env.NIGHTJAR_TEST_PORT ?? 0);
const engine = await startEngine({
  ledger,
  dataDir: process.env.DATA_DIR!,
  port,
  ...(port === 0 ? {} : { publicUrl: `https://127.0.0.1:${port}` }),
  ...(process.env.NIGHTJAR_TEST_MARKETS ? { markets: process.env.NIGHTJAR_TEST_MARKETS.split(',') } : {}),
  ...(process.env.NIGHTJAR_TEST_STORE ? { store: process.env.NIGHTJAR_TEST_STORE } : {}),
  ...(process.env.NIGHTJAR_TEST_PKI_DIR
    ? { attestation: { pkiDir: process.env.NIGHTJAR_TEST_PKI_DIR } }
    : {}),
  dev: true,
  circuitKeys: await devCircuitKeys(),
  hasher: FAST_ARGON2,
  verifyInputProof: async (proof: Uint8Array) => proof[0] !== 0xee,
  matchProver,
  matchVerifier: acceptAllMatchProofs,
  settlementTuning: { budgetMs: 3000, rebroadcastAfterMs: 300, parkMs: 200 },
  logger: false,
  // Benchmarks: the per-account order bucket is still taken, its refusals lifted.
  ...(process.env.NIGHTJAR_TEST_NO_ORDER_LIMIT === '1'
    ? { orderRateLimit: { capacity: 1e9, refillPerSecond: 1e9 } }
    : {}),
});
process.stdout.write(
  JSON.stringify({
    url: engine.url,
    cert: engine.certificate.certPem,
    bootSessionId: engine.bootSessionId,
    admin: engine.devAdmin ?? null,
  }) + '\n',
);
process.on('SIGTERM', () => void engine.close().then(() => process.exit(0)));
