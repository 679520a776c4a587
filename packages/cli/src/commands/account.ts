/** `nightjar account create|disable|enable|revoke-tokens`: admin routes. */
import { isNightjarError } from '@nightjar/sdk';
import { readReady, type Paths } from '../config.js';
import { UsageError } from '../args.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withClient } from '../connect.js';
import { str, type Command } from '../command.js';

/**
 * An admin route, as the dev admin of ready.json on a dev venue (the CLI's own trading account is
 * not an admin), else as the logged-in account. The venue answers 403 1150 to a non-admin (the
 * same code as a suspension).
 */
async function adminRequest<T>(paths: Paths, path: string, body?: unknown): Promise<T> {
  const admin = readReady(paths).admin;
  try {
    return await withClient(paths, admin ? { credentials: admin } : {}, (c) =>
      c.request<T>(path, { method: 'POST', ...(body === undefined ? {} : { body }) }),
    );
  } catch (err) {
    if (isNightjarError(err, 1150))
      throw new CliError(
        'refused (1150): this is an admin command and the logged-in account is not an admin (or is suspended); `nightjar login` with admin credentials',
        EXIT.auth,
      );
    throw err;
  }
}

interface AccountState {
  account_id: string;
  api_key: string;
  is_admin: boolean;
  enabled: boolean;
}

export const accountCreate: Command = {
  name: 'account create',
  summary: 'create an account (admin); prints its credentials once',
  usage: `nightjar account create [--label TEXT] [--admin-account]

  --label TEXT       operator note (not a secret)
  --admin-account    the new account is an admin
  The new api_secret and passphrase are printed once and never again.`,
  options: { label: { type: 'string' }, 'admin-account': { type: 'boolean' } },
  async run({ out, paths, values }) {
    const label = str(values, 'label');
    const body = { ...(label ? { label } : {}), ...(values['admin-account'] ? { is_admin: true } : {}) };
    const created = await adminRequest<Record<string, unknown>>(paths, '/admin/accounts', body);
    out.result(
      created,
      Object.entries(created)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('\n') + '\nkeep these now: the secret and passphrase are not shown again',
    );
    return 0;
  },
};

function stateCommand(action: 'disable' | 'enable' | 'revoke-tokens', summary: string): Command {
  return {
    name: `account ${action}`,
    summary,
    usage: `nightjar account ${action} --api-key K`,
    options: { 'api-key': { type: 'string' } },
    async run({ out, paths, values }) {
      const key = str(values, 'api-key');
      if (!key) throw new UsageError(`account ${action} needs --api-key`);
      const state = await adminRequest<AccountState>(
        paths,
        `/admin/accounts/${encodeURIComponent(key)}/${action}`,
      );
      out.result(
        state,
        `account ${state.account_id} (${state.api_key}): ${state.enabled ? 'enabled' : 'disabled'}${action === 'revoke-tokens' ? ', tokens revoked' : ''}`,
      );
      return 0;
    },
  };
}

export const accountDisable = stateCommand('disable', 'disable an account (admin)');
export const accountEnable = stateCommand('enable', 'enable an account (admin)');
export const accountRevokeTokens = stateCommand('revoke-tokens', "revoke an account's tokens (admin)");
