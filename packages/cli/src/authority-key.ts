/**
 * The ledger's genesis authority as a production `nightjar start` holds it: a JSON file
 * `{"admin_seed": "<64 hex>", "fee_owner_commitment": "<64 hex>"}` that only its owner may read.
 * The seed signs genesis and `set_tee_keys`; nothing else in the venue ever sees it.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import { parseGenesisAuthority, type AuthorityKey, type GenesisAuthority } from '@nightjar/ledger';
import {
  addressToBase58,
  bytesToHex,
  ed25519PublicKey,
  fieldToHex,
  hexToBytes,
  readSecretFile,
} from '@nightjar/protocol';
import { UsageError } from './args.js';

export interface LoadedAuthority {
  key: AuthorityKey;
  /** The public side a ledger is configured with. */
  genesis: GenesisAuthority;
}

export function readAuthorityKey(file: string): LoadedAuthority {
  let raw: unknown;
  try {
    // Ours alone (owner, 0600), never through a symlink: see readSecretFile.
    const text = readSecretFile(file);
    if (text === undefined) throw new Error('no such file');
    raw = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`cannot read the authority key ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const r = raw as { admin_seed?: unknown; fee_owner_commitment?: unknown };
  if (typeof r.admin_seed !== 'string' || !/^[0-9a-f]{64}$/.test(r.admin_seed))
    throw new UsageError(`the authority key ${file} needs admin_seed: 64 lowercase hex characters`);
  const adminSeed = hexToBytes(r.admin_seed);
  let genesis: GenesisAuthority;
  try {
    genesis = parseGenesisAuthority({
      admin: addressToBase58(ed25519PublicKey(adminSeed)),
      fee_owner_commitment: r.fee_owner_commitment,
    });
  } catch (err) {
    throw new UsageError(`the authority key ${file}: ${(err as Error).message}`);
  }
  return { key: { adminSeed, feeOwnerCommitment: genesis.fee_owner_commitment }, genesis };
}

/**
 * A new authority: `file` gets the admin seed and the fee owner commitment, `feeFile` the fee
 * owner's spending key (it spends the fee notes: keep it offline). Both are created exclusively,
 * mode 0600, so an existing key is never overwritten.
 */
export function createAuthorityKey(file: string, feeFile: string): GenesisAuthority {
  const seed = Uint8Array.from(randomBytes(32));
  const feeSpendingKey = randomFieldElement();
  const genesis = {
    admin: addressToBase58(ed25519PublicKey(seed)),
    fee_owner_commitment: fieldToHex(ownerCommitment(feeSpendingKey)),
  };
  const write = (path: string, data: unknown) => {
    try {
      writeFileSync(path, JSON.stringify(data) + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      throw new UsageError(`cannot create ${path}: ${(err as Error).message.split('\n')[0]}`);
    }
  };
  write(feeFile, {
    fee_spending_key: fieldToHex(feeSpendingKey),
    fee_owner_commitment: genesis.fee_owner_commitment,
  });
  write(file, { admin_seed: bytesToHex(seed), fee_owner_commitment: genesis.fee_owner_commitment });
  return genesis;
}
