/**
 * Who may create the vault. A dev ledger lets its first `initialize` make the caller admin (its own
 * dev genesis runs at once); a production ledger is told its genesis authority by configuration, so
 * a stranger who reaches a fresh ledger first cannot take the vault.
 */
import { base58Address, fieldElementHex, object, parseBody, required } from '@nightjar/protocol';

export interface GenesisAuthority {
  /** Base58 Ed25519 public key: the only signer whose `initialize` lands; it becomes the vault admin. */
  admin: string;
  /** The fee owner commitment `initialize` must carry (64 hex, a BN254 field element). */
  fee_owner_commitment: string;
}

const genesisAuthorityCodec = object({
  admin: required(base58Address('Public key of the genesis admin.')),
  fee_owner_commitment: required(fieldElementHex('Owner commitment of the protocol fee notes.')),
});

/** Validates a configured authority; the message names the bad field, never a secret. */
export function parseGenesisAuthority(raw: unknown): GenesisAuthority {
  const r = parseBody(genesisAuthorityCodec, raw);
  if (!r.ok) throw new Error(`invalid genesis authority: ${r.message}`);
  return r.value;
}
