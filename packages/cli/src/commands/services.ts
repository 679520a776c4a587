/** `nightjar start` and `nightjar ledger` as commands: long-running services, closed on Ctrl-C or SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_APP_PORT } from '@nightjar/app';
import { writeSecretFile } from '@nightjar/protocol';
import { LEDGER_OPTIONS, LEDGER_USAGE, startLedger } from './ledger.js';
import { marketsOption, START_OPTIONS, START_USAGE, startVenue } from './start.js';
import { SYMBOL as DEMO_SYMBOL } from '../demo/trader.js';
import { portOption, positiveIntOption, UsageError } from '../args.js';
import { choosePort, movedPortNote } from '../ports.js';
import { VenueLog } from '../venue-log.js';
import type { Ready } from '../config.js';
import { str, type Command } from '../command.js';

/** Keeps a long-running service up until Ctrl-C or SIGTERM, then closes it. */
export function closeOnSignal(close: () => Promise<void>, log?: VenueLog): void {
  let closing = false;
  const say = (text: string, failed = false) => {
    if (!log) process.stderr.write(text + '\n');
    else if (failed) log.warn({}, text);
    else log.info({}, text);
  };
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    say(`${signal}: shutting down`);
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        say(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`, true);
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
function forkDemoTraders(n: number, dataDir: string, log: VenueLog): ChildProcess {
  const since = String(Math.round(performance.timeOrigin));
  const args = [
    BIN,
    'demo-traders',
    '--traders',
    String(n),
    '--data-dir',
    dataDir,
    '--since',
    since,
    '--json',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Its JSON lines become records of the venue's log, not plain lines beside them.
  log.follow(child.stdout, 'demo-traders', 'info');
  log.follow(child.stderr, 'demo-traders', 'warn');
  return child;
}

/**
 * The trading app in its own process (`nightjar app`), started once the venue answers: it reads
 * the venue from a private copy of what ready.json will hold, and resolves with its URL once it
 * listens and has checked the venue's attestation. ready.json is written after that, with the URL.
 */
async function forkApp(
  dataDir: string,
  port: number,
  ready: Ready,
  log: VenueLog,
): Promise<{ child: ChildProcess; url: string }> {
  const pending = join(dataDir, 'ready.pending.json');
  writeSecretFile(pending, JSON.stringify(ready));
  const args = [BIN, 'app', '--data-dir', dataDir, '--port', String(port), '--ready-file', pending, '--json'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  log.follow(child.stderr, 'app', 'warn');
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d) => {
        out += String(d);
        for (const line of out.split('\n')) {
          if (!line.startsWith('{')) continue;
          try {
            const parsed = JSON.parse(line) as { app_url?: string; error?: { message?: string } };
            if (parsed.app_url) resolve(parsed.app_url);
            else if (parsed.error) reject(new Error(`the app did not start: ${parsed.error.message}`));
          } catch {
            // a partial line: wait for the rest
          }
        }
      });
      child.once('exit', (code) => reject(new Error(`the app exited (${code}) before it was ready`)));
    });
    // Later output of the app (nothing, with --json, unless it fails) goes to the venue's log.
    child.stdout?.removeAllListeners('data');
    log.follow(child.stdout, 'app', 'info');
    return { child, url };
  } catch (err) {
    if (child.exitCode === null) child.kill('SIGTERM');
    throw err;
  } finally {
    rmSync(pending, { force: true });
  }
}

/** Stops a child process (SIGTERM) and waits for it. */
async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export const start: Command = {
  name: 'start',
  summary: 'run the venue: the ledger and the engine, demo markets, a dev admin (none with --no-dev)',
  usage:
    START_USAGE.trimEnd() +
    `\n  --demo-traders N     also run N simulated traders (own process, SDK only) that quote and trade (dev mode)` +
    `\n  --no-app             do not start the trading app (by default \`nightjar app\` runs beside the venue,\n` +
    `                       in its own process; ready.json's app_url is its one-time login URL)` +
    `\n  --app-port P         port of the trading app on 127.0.0.1 (default ${DEFAULT_APP_PORT}, or the next free one\n                       when it is taken; 0 picks any free one; a given port that is taken is an error)`,
  options: {
    ...START_OPTIONS,
    'demo-traders': { type: 'string' },
    'no-app': { type: 'boolean' },
    'app-port': { type: 'string' },
  },
  longRunning: true,
  async run({ out, paths, values, argv }) {
    const traders = str(values, 'demo-traders');
    const n = traders === undefined ? 0 : positiveIntOption('demo-traders', traders, 1);
    const venueArgv = withoutFlags(argv, {
      '--json': 0,
      '--home': 1,
      '--demo-traders': 1,
      '--no-app': 0,
      '--app-port': 1,
    });
    const withApp = values['no-app'] !== true;
    const appPortFlag = str(values, 'app-port');
    // Checked before the venue starts: a taken port the user named stops here, not after a boot.
    const appPort = withApp
      ? await choosePort(
          '--app-port',
          appPortFlag === undefined ? undefined : portOption(appPortFlag, 0, '--app-port'),
          DEFAULT_APP_PORT,
        )
      : undefined;
    if (!venueArgv.some((a) => a === '--data-dir' || a.startsWith('--data-dir=')))
      venueArgv.push('--data-dir', paths.dataDir);
    const production = values['no-dev'] === true || str(values, 'platform') === 'dstack';
    if (production && n > 0)
      throw new UsageError('--demo-traders needs dev mode: the traders use the faucet and the dev admin');
    const markets = marketsOption(str(values, 'markets'));
    // The demo traders trade at this engine only: its own markets.
    if (n > 0 && markets && !markets.includes(DEMO_SYMBOL))
      throw new UsageError(
        `--demo-traders trade ${DEMO_SYMBOL}, which this engine does not write (--markets)`,
      );
    const log = new VenueLog();
    const venue = await startVenue(venueArgv, { deferReady: withApp, log });
    let appChild: ChildProcess | undefined;
    if (withApp) {
      try {
        const started = await forkApp(paths.dataDir, appPort?.port ?? 0, venue.ready, log);
        appChild = started.child;
        venue.writeReady({ app_url: started.url });
      } catch (err) {
        await venue.close();
        throw err;
      }
    }
    const child = n > 0 ? forkDemoTraders(n, paths.dataDir, log) : undefined;
    closeOnSignal(async () => {
      await stopChild(child);
      await stopChild(appChild);
      await venue.close();
    }, log);
    const { admin: _admin, ...publicReady } = venue.ready;
    const first = venue.firstAdmin;
    const portNotes = [venue.portNote, appPort && movedPortNote('the trading app', appPort)].filter(
      (n): n is string => n !== undefined,
    );
    out.result(
      {
        ...publicReady,
        ready_file: venue.readyFile,
        demo_traders: n,
        mode: venue.dev ? 'dev' : 'production',
        ...(first ? { first_admin: first } : {}),
        ...(portNotes.length ? { port_notes: portNotes } : {}),
      },
      portNotes.map((n) => `${n}\n`).join('') +
        `nightjar venue ready at ${venue.ready.base_url} (ledger ${venue.ready.ledger_tls_url ?? venue.ready.ledger_url}); details in ${venue.readyFile}\n` +
        (venue.ready.app_url
          ? `trading app: open ${venue.ready.app_url} (a one-time link; \`nightjar app --link\` prints a new one)\n`
          : '') +
        (first
          ? `production mode, first boot: the admin's credentials, shown this once and stored nowhere:\n` +
            `  api_key ${first.api_key}\n  api_secret ${first.api_secret}\n  passphrase ${first.passphrase}\n` +
            `log in with \`nightjar login --api-key ... --api-secret ... --passphrase ...\`\n`
          : '') +
        `next: \`npx nightjar wallet init\`, then see docs/quickstart.md${n ? `\n${n} demo traders starting (each with its own account): \`npx nightjar status\` shows the market` : ''}`,
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
      {
        url: running.url,
        ws_url: running.wsUrl,
        ...(running.tls
          ? {
              tls_url: running.tls.url,
              tls_ws_url: running.tls.wsUrl,
              tls_spki_sha256: running.tls.spkiSha256,
            }
          : {}),
        ...(running.devSecretFile ? { dev_secret_file: running.devSecretFile } : {}),
      },
      `nightjar ledger ready at ${running.url} (events: ${running.wsUrl})` +
        (running.tls
          ? `; over TLS at ${running.tls.url} (events: ${running.tls.wsUrl}), certificate SPKI SHA-256 ${running.tls.spkiSha256}`
          : '') +
        (running.devSecretFile ? `; dev secret in ${running.devSecretFile}` : ''),
    );
    return 0;
  },
};
