/**
 * `nightjar app`: the trading app (docs/app.md) for the venue of `<data-dir>/ready.json`: a web
 * page and a local JSON + WebSocket API on 127.0.0.1, the wallet and the SDK in this process.
 * `nightjar start` runs it beside the venue (a child process running this command).
 */
import { join, resolve } from 'node:path';
import { createAppServer, DEFAULT_APP_PORT, type AppServer } from '@nightjar/app';
import { readSecretFile } from '@nightjar/protocol';
import { portOption, positiveIntOption } from '../args.js';
import { readReady } from '../config.js';
import { CliError, EXIT } from '../exit-codes.js';
import { str, type Command } from '../command.js';

export const APP_USAGE = `nightjar app [--port P] [--data-dir D]
nightjar app --link [--data-dir D]

  Serves the trading app on http://127.0.0.1:P (default ${DEFAULT_APP_PORT}; 0 picks a free port) for the
  venue of <data-dir>/ready.json, and prints its URL. The URL carries a one-time token: opening it
  gives that browser a session (open it once; run the command again for a new one). The app listens
  on 127.0.0.1 only and refuses requests whose Host or Origin is not its own address.
  The app's state is <data-dir>/app/ (mode 0700): its wallet, the wallet password, the trading
  account's credentials.json (on a dev venue without it, the app's own account, made with the dev
  admin and saved there) and api-token, the bot API token (send it as
  \`Authorization: Bearer <token>\`; examples/python-bot uses it). See docs/app.md.

  --link   print a new one-time login URL of the app already running for this data directory
           (the one \`nightjar start\` started: ready.json's app_url), e.g. for a new browser
  --state-dir DIR
           the app's state elsewhere than <data-dir>/app/: a second app (e.g. for a bot) with its
           own wallet, account and api-token
  --fresh-note-hold S
           a new deposit backs no order until a random 0..S s after it is final, so its finality
           does not time the order (default off)`;

/** A new login URL from the running app, asked with the bot token. */
async function newLink(dataDir: string): Promise<string> {
  const appUrl = readReady({ dataDir, home: dataDir }).app_url;
  if (!appUrl)
    throw new CliError('ready.json has no app_url: no app runs beside this venue', EXIT.unreachable);
  const token = readSecretFile(join(dataDir, 'app', 'api-token'))?.trim();
  if (!token) throw new CliError('no app api-token in this data directory', EXIT.unreachable);
  const origin = new URL(appUrl).origin;
  const res = await fetch(`${origin}/api/v1/session/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  }).catch((err: unknown) => {
    throw new CliError(`the app at ${origin} does not answer: ${String(err)}`, EXIT.unreachable);
  });
  const body = (await res.json()) as { url?: string; error?: { message: string } };
  if (!body.url) throw new CliError(`the app refused: ${body.error?.message ?? res.status}`, EXIT.refused);
  return body.url;
}

/** Runs the app server; resolves with it once it listens and has checked the venue. */
export async function runApp(
  dataDir: string,
  port: number,
  readyFile?: string,
  freshNoteHoldMs?: number,
  stateDir?: string,
): Promise<AppServer> {
  return createAppServer({
    dataDir,
    port,
    ...(stateDir ? { stateDir: resolve(stateDir) } : {}),
    ...(readyFile ? { readyFile } : {}),
    ...(freshNoteHoldMs ? { freshNoteHoldMs } : {}),
  });
}

export const app: Command = {
  name: 'app',
  summary: 'the trading app: web page and local API on 127.0.0.1 (prints its URL)',
  usage: APP_USAGE,
  options: {
    port: { type: 'string' },
    'ready-file': { type: 'string' },
    link: { type: 'boolean' },
    'fresh-note-hold': { type: 'string' },
    'state-dir': { type: 'string' },
  },
  longRunning: true,
  async run({ out, paths, values }) {
    if (values.link) {
      const url = await newLink(paths.dataDir);
      out.result({ app_url: url }, `open ${url} (once)`);
      process.exitCode = 0;
      setTimeout(() => process.exit(0), 50).unref();
      return 0;
    }
    const server = await runApp(
      paths.dataDir,
      portOption(str(values, 'port'), DEFAULT_APP_PORT),
      str(values, 'ready-file'),
      values['fresh-note-hold'] === undefined
        ? undefined
        : positiveIntOption('fresh-note-hold', str(values, 'fresh-note-hold'), 1) * 1000,
      str(values, 'state-dir'),
    );
    const stop = (signal: string) => {
      process.stderr.write(`${signal}: the app is shutting down\n`);
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    const venue = server.venue();
    out.result(
      {
        app_url: server.url,
        port: server.port,
        api_token_file: server.apiTokenFile,
        attestation: venue.attestation,
      },
      `nightjar app ready at ${server.url}\n` +
        `open it once in your browser (the token is single-use); bots: the token in ${server.apiTokenFile}\n` +
        `venue ${venue.base_url}: attestation ${venue.attestation}${venue.error ? ` (${venue.error.message})` : ''}`,
    );
    return 0;
  },
};
