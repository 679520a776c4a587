/**
 * The chain id: SHA-256 of the genesis record `ledger-genesis-v1` ‖ genesis nonce (32 random
 * bytes) ‖ genesis admin (32 bytes) ‖ fee owner commitment (32 bytes), the last two the configured
 * genesis authority's or zeros (a dev ledger, whose admin is its first `initialize`'s signer). It is
 * fixed when the ledger's store is first opened, before any transaction (so `initialize` is bound
 * too), and kept in its `meta` table: a restart keeps it, another data directory gets another.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseAddress } from '@nightjar/protocol';
import type { GenesisAuthority } from './genesis-authority.js';
import { getMeta, setMeta, type Db } from './store.js';

const GENESIS_DOMAIN = Buffer.from('ledger-genesis-v1', 'ascii');

/** The ledger's chain id (64 hex), created with a fresh genesis nonce the first time. */
export function loadOrCreateChainId(db: Db, authority: GenesisAuthority | undefined): string {
  const saved = getMeta(db, 'chain_id');
  if (saved !== undefined) return saved;
  const nonce = randomBytes(32);
  const admin = authority ? parseAddress(authority.admin) : undefined;
  const feeOwner = authority ? Buffer.from(authority.fee_owner_commitment, 'hex') : Buffer.alloc(32);
  const chainId = createHash('sha256')
    .update(GENESIS_DOMAIN)
    .update(nonce)
    .update(admin ?? Buffer.alloc(32))
    .update(feeOwner)
    .digest('hex');
  db.transaction(() => {
    setMeta(db, 'genesis_nonce', nonce.toString('hex'));
    setMeta(db, 'chain_id', chainId);
  })();
  return chainId;
}
