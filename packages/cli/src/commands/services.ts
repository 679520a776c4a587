/** `nightjar start` and `nightjar ledger` as commands: long-running services, closed on Ctrl-C or SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LEDGER_OPTIONS, LEDGER_USAGE, startLedger } from './ledger.js';
import { START_OPTIONS, START_USAGE, startVenue } from './start.js';
import { positiveIntOption, UsageError } from '../args.js';
import { str, type Command } from '../command.js';

/** Keeps a long-running service up until Ctrl-C or SIGTERM, then closes it. */
function closeOnSignal(close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`${signal}: shutting down\n`);
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** `argv` without the named flags (and their value, when they take one). */
function withoutFlags(argv: string[], drop: Record<string, 0 | 1>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const name = a.split('=')[0] ?? a;
    const arity = drop[name];
    if (arity === undefined) kept.push(a);
    else if (arity === 1 && !a.includes('=')) i++;
  }
  return kept;
}

const BIN = fileURLToPath(new URL('../../bin/nightjar.mjs', import.meta.url));

/** The demo traders in their own process (`nightjar demo-traders`), stopped with the venue. */
function forkDemoTraders(n: number, dataDir: string): ChildProcess {
  const since = String(Math.round(performance.timeOrigin));
  const args = [BIN, 'demo-traders', '--traders', String(n), '--data-dir', dataDir, '--since', since];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

export const start: Command = {
  name: 'start',
  summary: 'run the venue: the ledger and the engine, demo markets, a dev admin (none with --no-dev)',
  usage:
    START_USAGE.trimEnd() +
    `\n  --demo-traders N     also run N simulated traders (own process, SDK only) that quote and trade (dev mode)`,
  options: { ...START_OPTIONS, 'demo-traders': { type: 'string' } },
  longRunning: true,
  async run({ out, paths, values, argv }) {
    const traders = str(values, 'demo-traders');
    const n = traders === undefined ? 0 : positiveIntOption('demo-traders', traders, 1);
    const venueArgv = withoutFlags(argv, { '--json': 0, '--home': 1, '--demo-traders': 1 });
    if (!venueArgv.some((a) => a === '--data-dir' || a.startsWith('--data-dir=')))
      venueArgv.push('--data-dir', paths.dataDir);
    const production = values['no-dev'] === true || str(values, 'platform') === 'dstack';
    if (production && n > 0)
      throw new UsageError('--demo-traders needs dev mode: the traders use the faucet and the dev admin');
    const venue = await startVenue(venueArgv);
    const child = n > 0 ? forkDemoTraders(n, paths.dataDir) : undefined;
    closeOnSignal(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      await venue.close();
    });
    const { admin: _admin, ...publicReady } = venue.ready;
    const first = venue.firstAdmin;
    out.result(
      {
        ...publicReady,
        ready_file: venue.readyFile,
        demo_traders: n,
        mode: venue.dev ? 'dev' : 'production',
        ...(first ? { first_admin: first } : {}),
      },
      `nightjar venue ready at ${venue.ready.base_url} (ledger ${venue.ready.ledger_url}); details in ${venue.readyFile}\n` +
        (first
          ? `production mode, first boot: the admin's credentials, shown this once and stored nowhere:\n` +
            `  api_key ${first.api_key}\n  api_secret ${first.api_secret}\n  passphrase ${first.passphrase}\n` +
            `log in with \`nightjar login --api-key ... --api-secret ... --passphrase ...\`\n`
          : '') +
        `next: \`npx nightjar wallet init\`, then see docs/quickstart.md${n ? `\n${n} demo traders starting (they trade as the dev admin): \`npx nightjar watch\` shows their orders and fills` : ''}`,
    );
    return 0;
  },
};

export const ledger: Command = {
  name: 'ledger',
  summary: 'run the embedded ledger as a JSON-RPC server',
  usage: LEDGER_USAGE,
  options: LEDGER_OPTIONS,
  longRunning: true,
  async run({ out, argv }) {
    const running = await startLedger(withoutFlags(argv, { '--json': 0, '--home': 1 }));
    closeOnSignal(running.close);
    out.result(
      { url: running.url, ws_url: running.wsUrl },
      `nightjar ledger ready at ${running.url} (events: ${running.wsUrl})`,
    );
    return 0;
  },
};
