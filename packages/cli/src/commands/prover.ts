/**
 * `nightjar prover --engine URL`: a prover pool worker, meant for a machine of its own (DESIGN 11).
 * Its X25519 sealing key is made fresh here and lives in memory only; the registration client
 * binds it into the worker's attestation and registers with the engine, which then seals jobs to
 * it. Runs until Ctrl-C or SIGTERM, then hands its unfinished jobs back and exits.
 */
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { generateX25519KeyPair } from '@nightjar/crypto';
import { runProverWorker } from '@nightjar/engine';
import { positiveIntOption, UsageError } from '../args.js';
import { str, type Command, type Values } from '../command.js';
import { readReady, type Paths } from '../config.js';
import { pinnedRoot, signerSetLedger } from '../connect.js';
import { openWorkerPlatform, registerWithEngine } from '../prover/register-with-engine.js';
import { closeOnSignal } from './services.js';

export const PROVER_USAGE = `nightjar prover [--engine URL] [--threads N] [--data-dir D] [--pki-dir DIR]

  A remote prover for an engine's prover pool: verifies the engine's attestation (a)-(d), registers
  with it (its own attestation checked there), then proves the match and lock jobs sealed to it
  from the engine's PostgreSQL job queue. What it pins (the platform root, the engine's compose
  hash, the ledger for the signer set) is the venue's ready.json in the data directory, as for
  every command (a worker machine keeps a copy of it).

  --engine URL   the engine's https:// URL (default ready.json's base_url)
  --threads N    proofs at once, one core each (default: the machine's cores)
  --data-dir D   where ready.json is (as for every command), and then also where the worker keeps
                 its own state, its simulated platform identity (without it: <home>/prover)
  --pki-dir DIR  the venue's shared simulated PKI (default the one holding ready.json's platform_root)`;

/** The worker's registration: the engine verified with ready.json's pins, the worker's own platform. */
async function workerRegistration(paths: Paths, engineUrl: string, values: Values) {
  const ready = readReady(paths);
  const ledger = signerSetLedger(ready);
  const platform = await openWorkerPlatform({
    dataDir: str(values, 'data-dir') ?? join(paths.home, 'prover'),
    ...(ready.platform_root ? { pkiDir: str(values, 'pki-dir') ?? dirname(ready.platform_root) } : {}),
  });
  const sealingKeys = generateX25519KeyPair();
  const register = registerWithEngine({
    engineUrl,
    pinnedRoot: pinnedRoot(ready),
    composeHash: ready.compose_hash,
    ledger: ledger.source,
    platform,
    sealingKeys,
  });
  return { register, sealingKeys, ledger };
}

export const prover: Command = {
  name: 'prover',
  summary: 'run a remote prover worker for an engine',
  usage: PROVER_USAGE,
  options: {
    engine: { type: 'string' },
    threads: { type: 'string' },
    'data-dir': { type: 'string' },
    'pki-dir': { type: 'string' },
  },
  longRunning: true,
  async run({ out, values, paths }) {
    const engine = str(values, 'engine') ?? readReady(paths).base_url;
    if (!/^https:\/\//i.test(engine)) throw new UsageError("--engine must be the engine's https:// URL");
    const threads = positiveIntOption('threads', str(values, 'threads'), availableParallelism());
    const { register, sealingKeys, ledger } = await workerRegistration(paths, engine, values);
    const worker = await runProverWorker({
      register,
      sealingPrivateKey: sealingKeys.privateKey,
      threads,
      log: (message, fields) => process.stderr.write(`${message} ${JSON.stringify(fields ?? {})}\n`),
    });
    closeOnSignal(async () => {
      await worker.stop();
      register.close();
      await ledger.close();
    });
    out.info(`prover ${worker.registration.workerId}: ${threads} thread(s), jobs for ${engine}`);
    return 0;
  },
};
