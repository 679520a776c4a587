/** `nightjar` command line: finds the command, parses its flags, runs it, maps errors to exit codes. */
import { parseArgs } from 'node:util';
import { UsageError } from './args.js';
import { classifyError } from './classify-error.js';
import { GLOBAL_OPTIONS, GLOBAL_USAGE, type Command } from './command.js';
import { resolvePaths } from './config.js';
import { EXIT } from './exit-codes.js';
import { Output } from './output.js';
import { COMMANDS } from './commands/index.js';

const EXIT_CODES = `Exit codes: 0 ok, 1 venue or ledger refused (code printed), 2 usage, 3 venue unreachable
or transport verification failed, 4 auth, 5 wallet, 6 timeout.`;

function overview(): string {
  const width = Math.max(...COMMANDS.filter((c) => !c.hidden).map((c) => c.name.length));
  return `nightjar <command> [flags]    (every command takes --help and --json)

Commands:
${COMMANDS.filter((c) => !c.hidden)
  .map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
  .join('\n')}

${GLOBAL_USAGE}

${EXIT_CODES}
Start here: \`npm start -- --demo-traders 4\`, then \`npx nightjar watch\` (docs/quickstart.md).
`;
}

function helpOf(c: Command): string {
  return `${c.usage.trimEnd()}\n\n${GLOBAL_USAGE}\n\n${EXIT_CODES}\n`;
}

/** The command named by the longest prefix of `argv`, and the rest. */
function findCommand(argv: string[]): { command?: Command; rest: string[]; group?: string } {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(words) };
  }
  const group = argv[0];
  return {
    rest: argv.slice(1),
    ...(group && COMMANDS.some((c) => c.name.startsWith(`${group} `)) ? { group } : {}),
  };
}

async function main(argv: string[]): Promise<{ code: number; longRunning: boolean }> {
  const json = argv.includes('--json');
  const out = new Output(json);
  const first = argv[0];
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    process.stdout.write(overview());
    return { code: first === undefined ? EXIT.usage : 0, longRunning: false };
  }
  const { command, rest, group } = findCommand(argv);
  if (!command) {
    if (group) {
      const subs = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
      const text = `nightjar ${group} <${subs.map((c) => c.name.split(' ')[1]).join('|')}>\n\n${subs.map((c) => `  ${c.name}  ${c.summary}`).join('\n')}\n`;
      const asked = rest.includes('--help') || rest.includes('-h');
      if (asked) process.stdout.write(text);
      else
        process.stderr.write(
          `${rest[0] ? `unknown command: ${group} ${rest[0]}` : `${group} needs a subcommand`}\n\n${text}`,
        );
      return { code: asked ? 0 : EXIT.usage, longRunning: false };
    }
    throw new UsageError(`unknown command: ${first}; run \`nightjar --help\` for the list`);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: false,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(
      `${command.name}: ${err instanceof Error ? err.message : String(err)}; see \`nightjar ${command.name} --help\``,
    );
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) {
    process.stdout.write(helpOf(command));
    return { code: 0, longRunning: false };
  }
  const paths = resolvePaths({
    'data-dir': values['data-dir'] as string | undefined,
    home: values.home as string | undefined,
  });
  // Services (start, ledger, app) create the venue's files: nobody else may read what they make.
  if (command.longRunning) process.umask(0o077);
  const code = await command.run({ out, paths, values, positionals: parsed.positionals, argv: rest });
  return { code, longRunning: command.longRunning === true && code === 0 };
}

const argv = process.argv.slice(2);
main(argv).then(
  ({ code, longRunning }) => {
    if (!longRunning) process.exitCode = code;
    if (!longRunning) setTimeout(() => process.exit(code), 50).unref();
  },
  (err: unknown) => {
    const { exitCode, message, code, ledgerCode } = classifyError(err);
    if (argv.includes('--json'))
      process.stdout.write(
        JSON.stringify({
          error: {
            message,
            exit_code: exitCode,
            ...(code === undefined ? {} : { code }),
            ...(ledgerCode === undefined ? {} : { ledger_code: ledgerCode }),
          },
        }) + '\n',
      );
    process.stderr.write(`nightjar: ${message}\n`);
    process.exit(exitCode);
  },
);
