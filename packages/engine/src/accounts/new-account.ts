/** A new account's credentials, its stored row (hashes only) and the one answer that shows them. */
import type { CreatedAccountResponse } from '@nightjar/protocol';
import {
  generateAccountId,
  generateApiKey,
  generateSecret,
  type CredentialHasher,
} from './credential-hasher.js';
import type { AccountRow } from './store.js';

export interface GeneratedCredentials {
  apiSecret: string;
  passphrase: string;
  apiSecretHash: string;
  passphraseHash: string;
}

/** Fresh credentials and their hashes (the slow, asynchronous half of creating an account). */
export async function generateCredentials(hasher: CredentialHasher): Promise<GeneratedCredentials> {
  const apiSecret = generateSecret();
  const passphrase = generateSecret();
  const [apiSecretHash, passphraseHash] = await Promise.all([
    hasher.hash(apiSecret),
    hasher.hash(passphrase),
  ]);
  return { apiSecret, passphrase, apiSecretHash, passphraseHash };
}

export function newAccountRow(
  nowMs: number,
  isAdmin: boolean,
  label: string | null,
  creds: GeneratedCredentials,
): AccountRow {
  return {
    accountId: generateAccountId(),
    apiKey: generateApiKey(),
    apiSecretHash: creds.apiSecretHash,
    passphraseHash: creds.passphraseHash,
    isAdmin,
    enabled: true,
    label,
    tokensValidAfterS: 0,
    cancelOnDisconnectDefault: false,
    createdAtMs: nowMs,
  };
}

export function createdResponse(row: AccountRow, creds: GeneratedCredentials): CreatedAccountResponse {
  return {
    account_id: row.accountId,
    api_key: row.apiKey,
    api_secret: creds.apiSecret,
    passphrase: creds.passphrase,
    is_admin: row.isAdmin,
  };
}
