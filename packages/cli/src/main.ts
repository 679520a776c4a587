/** `nightjar` command line. Only the commands that exist are offered; the rest say so plainly. */
import { UsageError } from './args.js';
import { LEDGER_USAGE, startLedger } from './commands/ledger.js';

const USAGE = `nightjar <command>

Commands:
  ledger    run the embedded ledger as a JSON-RPC server
  start     run the venue (ledger + engine): not built yet
  help      show this text

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
    case 'start':
      process.stdout.write(
        'nightjar start: not yet. The engine is still being built; `nightjar ledger` runs the chain on its own.\n',
      );
      return 0;
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
