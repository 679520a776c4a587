/**
 * One error class per failed transport check, each with a stable `code` to branch on and the
 * check of the spec's Authentication rule 15 it belongs to ('a' to 'd'). Messages may change;
 * codes do not.
 */
import type { MeasurementRegister } from './measurements.js';

export type TransportCheck = 'a' | 'b' | 'c' | 'd';

export type TransportErrorCode =
  | 'ATTESTATION_EVIDENCE'
  | 'ATTESTATION_NONCE'
  | 'ATTESTATION_ROOT'
  | 'ATTESTATION_QUOTE'
  | 'ATTESTATION_TCB'
  | 'ATTESTATION_COLLATERAL'
  | 'ATTESTATION_MANIFEST'
  | 'ATTESTATION_SPKI'
  | 'ATTESTATION_EVENT_LOG'
  | 'ATTESTATION_COMPOSE_HASH'
  | 'ATTESTATION_MEASUREMENT'
  | 'ATTESTATION_BOOT_SESSION'
  | 'ATTESTATION_SIGNER_SET'
  | 'TRANSPORT_TLS'
  | 'TRANSPORT_CLOSED'
  | 'TRANSPORT_NOT_VERIFIED';

export abstract class TransportError extends Error {
  abstract readonly code: TransportErrorCode;
  /** The rule-15 check that failed, when the error is one. */
  readonly check: TransportCheck | undefined = undefined;
}

/** The evidence could not be fetched or is not well-formed JSON of the documented shape. */
export class EvidenceUnavailableError extends TransportError {
  override readonly name = 'EvidenceUnavailableError';
  readonly code = 'ATTESTATION_EVIDENCE';
}

/** (a) The quote does not carry the nonce this client just sent (stale, replayed or foreign). */
export class NonceMismatchError extends TransportError {
  override readonly name = 'NonceMismatchError';
  readonly code = 'ATTESTATION_NONCE';
  override readonly check = 'a';
}

/** (a) A certificate chain (quote PCK chain or collateral issuer chain) does not end at the pinned root. */
export class RootMismatchError extends TransportError {
  override readonly name = 'RootMismatchError';
  readonly code = 'ATTESTATION_ROOT';
  override readonly check = 'a';
}

/** (a) The quote or its collateral does not verify (signatures, QE identity, TD attributes...). */
export class QuoteInvalidError extends TransportError {
  override readonly name = 'QuoteInvalidError';
  readonly code = 'ATTESTATION_QUOTE';
  override readonly check = 'a';
}

/** (a) The platform's TCB status is not `UpToDate`. */
export class TcbStatusError extends TransportError {
  override readonly name = 'TcbStatusError';
  readonly code = 'ATTESTATION_TCB';
  override readonly check = 'a';
  constructor(readonly status: string) {
    super(`platform TCB status is ${status}, not UpToDate`);
  }
}

/** (a) The client's own collateral source (its PCCS or fetcher) failed; the venue's is not used instead. */
export class CollateralUnavailableError extends TransportError {
  override readonly name = 'CollateralUnavailableError';
  readonly code = 'ATTESTATION_COLLATERAL';
  override readonly check = 'a';
}

/** (b) The manifest bytes do not reproduce the quote's report data (or disagree with the manifest shown). */
export class ManifestMismatchError extends TransportError {
  override readonly name = 'ManifestMismatchError';
  readonly code = 'ATTESTATION_MANIFEST';
  override readonly check = 'b';
}

/** (b) The attested TLS key is not the one on this socket: someone else terminates this TLS connection. */
export class SpkiMismatchError extends TransportError {
  override readonly name = 'SpkiMismatchError';
  readonly code = 'ATTESTATION_SPKI';
  override readonly check = 'b';
}

export type EventLogFailure =
  'malformed' | 'digest_mismatch' | 'retyped_compose_hash' | 'compose_hash_count' | 'replay_mismatch';

/** (c) The event log is malformed, an entry's digest contradicts its payload, or it does not replay to RTMR3. */
export class EventLogError extends TransportError {
  override readonly name = 'EventLogError';
  readonly code = 'ATTESTATION_EVENT_LOG';
  override readonly check = 'c';
  constructor(
    readonly reason: EventLogFailure,
    message: string,
  ) {
    super(message);
  }
}

/** (c) The attested compose hash is not the pinned release value. */
export class ComposeHashMismatchError extends TransportError {
  override readonly name = 'ComposeHashMismatchError';
  readonly code = 'ATTESTATION_COMPOSE_HASH';
  override readonly check = 'c';
}

/** (c) A platform measurement (MRTD, RTMR0–2) is not the value this client pinned: another CVM image. */
export class MeasurementMismatchError extends TransportError {
  override readonly name = 'MeasurementMismatchError';
  readonly code = 'ATTESTATION_MEASUREMENT';
  override readonly check = 'c';
  constructor(readonly register: MeasurementRegister) {
    super(`the quote's ${register.toUpperCase()} is not the pinned value`);
  }
}

/** (d) The manifest's boot session is not the one `/info` reports. */
export class BootSessionMismatchError extends TransportError {
  override readonly name = 'BootSessionMismatchError';
  readonly code = 'ATTESTATION_BOOT_SESSION';
  override readonly check = 'd';
}

/** (d) The manifest's signer set is not the finalized on-chain TEE key set. */
export class SignerSetMismatchError extends TransportError {
  override readonly name = 'SignerSetMismatchError';
  readonly code = 'ATTESTATION_SIGNER_SET';
  override readonly check = 'd';
}

/** The server's certificate is not valid for the host or not valid now. */
export class TlsCertificateError extends TransportError {
  override readonly name = 'TlsCertificateError';
  readonly code = 'TRANSPORT_TLS';
}

/** The pinned socket is gone; a new one must be opened and verified. */
export class SocketClosedError extends TransportError {
  override readonly name = 'SocketClosedError';
  readonly code = 'TRANSPORT_CLOSED';
}

/** Something tried to send on a socket that has not passed verification. */
export class NotVerifiedError extends TransportError {
  override readonly name = 'NotVerifiedError';
  readonly code = 'TRANSPORT_NOT_VERIFIED';
}
