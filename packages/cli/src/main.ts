/** `nightjar` command line. Only the commands that exist are offered; the rest say so plainly. */
import { UsageError } from './args.js';
import { LEDGER_USAGE, startLedger } from './commands/ledger.js';
import { START_USAGE, startVenue } from './commands/start.js';

const USAGE = `nightjar <command>

Commands:
  start     run the venue: the ledger and the engine, with demo markets and a dev admin
  ledger    run the embedded ledger as a JSON-RPC server
  help      show this text

${START_USAGE}
${LEDGER_USAGE}`;

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

async function main(argv: string[]): Promise<number> {
  const [command = 'help', ...rest] = argv;
  switch (command) {
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    case 'ledger': {
      const running = await startLedger(rest);
      closeOnSignal(running.close);
      process.stdout.write(`nightjar ledger ready at ${running.url} (events: ${running.wsUrl})\n`);
      return 0;
    }
    case 'start': {
      const venue = await startVenue(rest);
      closeOnSignal(venue.close);
      process.stdout.write(
        `nightjar venue ready at ${venue.ready.base_url} (ledger ${venue.ready.ledger_url}); details in ${venue.readyFile}\n` +
          'note: settlement is not wired yet, so matched orders wait in pending_settlement (see /system/status)\n',
      );
      return 0;
    }
    default:
      process.stderr.write(`unknown command: ${command}\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    process.stderr.write(`nightjar: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
