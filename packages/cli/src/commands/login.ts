/** `nightjar login`: checks credentials against the venue and saves them (0600) in the config directory. */
import { credentialsFile, readReady, writePrivate } from '../config.js';
import { withClient } from '../connect.js';
import { str, type Command } from '../command.js';
import { UsageError } from '../args.js';

export const login: Command = {
  name: 'login',
  summary: 'check credentials with the venue and save them',
  usage: `nightjar login [--api-key K --api-secret S --passphrase P] [--admin]

  With no flags (or --admin) on a local dev venue, logs in as the dev admin of ready.json.
  Credentials can also come from NIGHTJAR_API_KEY, NIGHTJAR_API_SECRET, NIGHTJAR_PASSPHRASE.
  They are saved in <home>/credentials.json (mode 0600).`,
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
    } else {
      if (!ready.admin)
        throw new UsageError(
          'this venue has no dev admin in ready.json: pass --api-key, --api-secret, --passphrase',
        );
      credentials = ready.admin;
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
