/**
 * Check (d): the manifest's boot session is the one `/info` reports on this connection, and its
 * signer set is the finalized on-chain TEE key set, read from the ledger (not from the engine).
 */
import { parseAddress, signerSetSha256, type TransportManifest } from '@nightjar/protocol';
import {
  NIGHTJAR_ERROR__ATTESTATION_BOOT_SESSION,
  NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET,
  NightjarError,
} from '../errors/index.js';

/** Where the finalized signer set is read: any `LedgerClient` (in-process or JSON-RPC) fits. */
export interface SignerSetSource {
  getVault(params: { commitment: 'finalized' }): Promise<{ tee_keys: string[]; signer_set_sha256?: string }>;
}

export interface CheckIdentityParameters {
  manifest: TransportManifest;
  /** `boot_session_id` of `/info`, read over the same socket. */
  infoBootSessionId: string;
  ledger: SignerSetSource;
}

export interface CheckIdentityReturnType {
  bootSessionId: string;
  teeKeys: string[];
  signerSetSha256: string;
}

export async function checkIdentity(params: CheckIdentityParameters): Promise<CheckIdentityReturnType> {
  if (params.infoBootSessionId.toLowerCase() !== params.manifest.boot_session_id)
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_BOOT_SESSION, {
      detail: 'the attested boot session is not the one /info reports',
    });
  const vault = await params.ledger.getVault({ commitment: 'finalized' });
  const keys = vault.tee_keys.map((k) => {
    const bytes = parseAddress(k);
    if (!bytes)
      throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET, {
        detail: 'the ledger returned a malformed TEE key',
      });
    return bytes;
  });
  const onChain = signerSetSha256(keys);
  if (vault.signer_set_sha256 !== undefined && vault.signer_set_sha256 !== onChain)
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET, {
      detail: 'the ledger signer set hash does not match its keys',
    });
  if (onChain !== params.manifest.signer_set_sha256)
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET, {
      detail: 'the attested signer set is not the finalized on-chain set',
    });
  return {
    bootSessionId: params.manifest.boot_session_id,
    teeKeys: vault.tee_keys,
    signerSetSha256: onChain,
  };
}
