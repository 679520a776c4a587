import { createdAccountCodec, type CreatedAccountResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { NightjarError } from '../core/errors/index.js';

/** The account to create. */
export interface CreateAccountParameters {
  /** Operator note, not a secret (at most 128 characters). */
  label?: string;
  /** Make it an admin account (default false). */
  isAdmin?: boolean;
}

/**
 * The new account: `account_id`, `is_admin` and its credentials (`api_key`, `api_secret`,
 * `passphrase`), shown this once: store them. The object is itself a `Credentials`.
 */
export type CreateAccountReturnType = CreatedAccountResponse;

/**
 * `POST /admin/accounts` with an admin client: registers a trading account and returns its
 * credentials once. A non-admin client gets `FORBIDDEN` (1150).
 *
 * @example
 * const admin = await createClient({ ...pins, credentials: ready.admin });
 * const creds = await createAccount(admin, { label: 'my-bot' });
 * const bot = await createClient({ ...pins, credentials: creds, wallet });
 */
export async function createAccount(
  client: Client,
  params: CreateAccountParameters = {},
): Promise<CreateAccountReturnType> {
  return client.request('/admin/accounts', {
    method: 'POST',
    body: {
      ...(params.label === undefined ? {} : { label: params.label }),
      ...(params.isAdmin ? { is_admin: true } : {}),
    },
    codec: createdAccountCodec,
  });
}

/** What `createAccount` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type CreateAccountErrorType = NightjarError;
