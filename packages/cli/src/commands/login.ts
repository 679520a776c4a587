/** `nightjar login`: checks credentials against the venue and saves them (0600) in the config directory. */
import { credentialsFile, readReady, savedCredentials, writePrivate } from '../config.js';
import { cliCredentials, withClient } from '../connect.js';
import { str, type Command } from '../command.js';
import { UsageError } from '../args.js';

export const login: Command = {
  name: 'login',
  summary: 'check credentials with the venue and save them',
  usage: `nightjar login [--api-key K --api-secret S --passphrase P] [--admin]

  With no flags on a local dev venue: the CLI's own trading account (\`cli\`), made once with the
  dev admin of ready.json (the first command that needs an account does the same), so the CLI's
  orders are its own and not the app's or the demo traders'. --admin: the dev admin itself.
  Credentials can also come from NIGHTJAR_API_KEY, NIGHTJAR_API_SECRET, NIGHTJAR_PASSPHRASE.
  They are saved in <home>/credentials.json (mode 0600, in a 0700 directory).`,
  options: {
    'api-key': { type: 'string' },
    'api-secret': { type: 'string' },
    passphrase: { type: 'string' },
    admin: { type: 'boolean' },
  },
  async run({ out, paths, values }) {
    const ready = readReady(paths);
    const key = str(values, 'api-key') ?? process.env.NIGHTJAR_API_KEY;
    const secret = str(values, 'api-secret') ?? process.env.NIGHTJAR_API_SECRET;
    const passphrase = str(values, 'passphrase') ?? process.env.NIGHTJAR_PASSPHRASE;
    let credentials;
    if (key || secret || passphrase) {
      if (!key || !secret || !passphrase)
        throw new UsageError('login needs all of --api-key, --api-secret and --passphrase');
      credentials = { api_key: key, api_secret: secret, passphrase };
    } else if (values.admin) {
      if (!ready.admin)
        throw new UsageError(
          'this venue has no dev admin in ready.json: pass --api-key, --api-secret, --passphrase',
        );
      credentials = ready.admin;
    } else {
      if (!ready.admin && !savedCredentials(paths))
        throw new UsageError(
          'this venue has no dev admin in ready.json to make the CLI an account: pass --api-key, --api-secret, --passphrase',
        );
      credentials = await out.progress("the CLI's own account", cliCredentials(paths, ready));
    }
    const accountId = await out.progress('verifying the venue and logging in', () =>
      withClient(paths, { credentials }, async (c) => c.accountId),
    );
    writePrivate(credentialsFile(paths), JSON.stringify(credentials) + '\n');
    out.result(
      { account_id: accountId, api_key: credentials.api_key, saved: credentialsFile(paths) },
      `logged in as account ${accountId} (api key ${credentials.api_key}); saved to ${credentialsFile(paths)}`,
    );
    return 0;
  },
};
