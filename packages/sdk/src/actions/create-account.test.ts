/** `createAccount`: `POST /admin/accounts` with only the options given; a non-admin gets 1102. */
import { fakeClient, type FakeRequest, refusing } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { createAccount } from './create-account.js';

/** The venue's answer: the new account and its credentials, shown once. */
const created = ({ body }: FakeRequest) => ({
  account_id: 'acct-7',
  is_admin: (body as { is_admin?: boolean }).is_admin ?? false,
  api_key: 'key',
  api_secret: 'secret',
  passphrase: 'phrase',
});

describe('createAccount', () => {
  it('sends the label and admin flag only when given, and returns the credentials', async () => {
    const { client, requests } = fakeClient({ routes: { 'POST /admin/accounts': created } });
    expect(await createAccount(client)).toMatchObject({
      account_id: 'acct-7',
      is_admin: false,
      api_key: 'key',
    });
    expect(await createAccount(client, { label: 'my-bot', isAdmin: true })).toMatchObject({ is_admin: true });
    await createAccount(client, { label: 'x', isAdmin: false });
    expect(requests.map((r) => r.body)).toEqual([{}, { label: 'my-bot', is_admin: true }, { label: 'x' }]);
  });

  it('a client that is not an admin: Forbidden (1102)', async () => {
    const { client } = fakeClient({
      routes: {
        'POST /admin/accounts': refusing(1102, 403, 'admin only'),
      },
    });
    const err = await createAccount(client, { label: 'x' }).catch((e: unknown) => e);
    expect(isNightjarError(err, 1102)).toBe(true);
  });
});
