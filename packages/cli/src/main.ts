/** `nightjar` command line. Only the commands that exist are offered; the rest say so plainly. */
const USAGE = `nightjar <command>

Commands:
  start     run the venue (ledger + engine): not built yet
  ledger    run the embedded ledger on its own: not built yet
  help      show this text
`;

function main(argv: string[]): number {
  const [command = 'help'] = argv;
  switch (command) {
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    case 'start':
    case 'ledger':
      process.stdout.write(
        `nightjar ${command}: not yet. The ledger and the engine are still being built; ` +
          'today the repository provides the protocol, crypto and circuits packages and their tests (npm test).\n',
      );
      return 0;
    default:
      process.stderr.write(`unknown command: ${command}\n\n${USAGE}`);
      return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
