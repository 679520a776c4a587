/**
 * `nightjar prover --engine URL`: a prover pool worker, meant for a machine of its own (DESIGN 11).
 * Its X25519 sealing key is made fresh here and lives in memory only; the registration client
 * binds it into the worker's attestation and registers with the engine, which then seals jobs to
 * it. Runs until Ctrl-C or SIGTERM, then hands its unfinished jobs back and exits.
 */
import { availableParallelism } from 'node:os';
import { generateX25519KeyPair, type X25519KeyPair } from '@nightjar/crypto';
import { runProverWorker, type RegisterWorker } from '@nightjar/engine';
import { positiveIntOption, UsageError } from '../args.js';
import { str, type Command } from '../command.js';
import { closeOnSignal } from './services.js';

export const PROVER_USAGE = `nightjar prover --engine URL [--threads N]

  A remote prover for an engine's prover pool: registers with the engine (its attestation checked
  there), then proves the match and lock jobs sealed to it from the engine's PostgreSQL job queue.

  --engine URL   the engine's https:// URL (its attestation is verified before registering)
  --threads N    proofs at once, one core each (default: the machine's cores)`;

/**
 * How the worker registers. PLACEHOLDER until the attestation work's registration client is
 * merged: the lead replaces this with that client (engine URL + sealing key → RegisterWorker).
 */
export function registrationClient(_engineUrl: string, _sealingKey: X25519KeyPair): RegisterWorker {
  return () => Promise.reject(new Error('registration client not merged'));
}

export const prover: Command = {
  name: 'prover',
  summary: 'run a remote prover worker for an engine',
  usage: PROVER_USAGE,
  options: { engine: { type: 'string' }, threads: { type: 'string' } },
  longRunning: true,
  async run({ out, values }) {
    const engine = str(values, 'engine');
    if (!engine || !/^https:\/\//i.test(engine))
      throw new UsageError("--engine must be the engine's https:// URL");
    const threads = positiveIntOption('threads', str(values, 'threads'), availableParallelism());
    const sealingKey = generateX25519KeyPair();
    const worker = await runProverWorker({
      register: registrationClient(engine, sealingKey),
      sealingPrivateKey: sealingKey.privateKey,
      threads,
      log: (message, fields) => process.stderr.write(`${message} ${JSON.stringify(fields ?? {})}\n`),
    });
    closeOnSignal(() => worker.stop());
    out.info(`prover ${worker.registration.workerId}: ${threads} thread(s), jobs for ${engine}`);
    return 0;
  },
};
