/**
 * Every error code the SDK throws, as one numeric union (in the manner of `@solana/kit`).
 *
 * CODES ARE NEVER RENUMBERED OR REUSED: a program may store or compare them. A new failure gets a
 * new number in its range; a retired one keeps its number, unused.
 *
 * Ranges:
 * - 1000–5002, 4030, 4290: the venue's own spec codes (`ERROR_CATALOGUE`, stream-only codes),
 *   thrown as the venue answered them.
 * - 6000s: transport verification (the spec's Authentication rule 15, checks (a)–(d)).
 * - 7000s: the wallet and its notes.
 * - 8000s: the ledger (reads, transactions, the dev faucet).
 * - 9000s: client-side (network, an invalid answer, a proof, a parameter, the stream, a venue code
 *   this SDK does not know).
 */
import type { ErrorCode, StreamErrorCode } from '@nightjar/protocol';

/** Every code the venue answers with: the spec's (`ERROR_CATALOGUE`) and the stream-only ones. */
export type VenueErrorCode = ErrorCode | StreamErrorCode;

// 6000s: transport verification. Each names the rule-15 check it belongs to (see `TRANSPORT_CHECK`).
/** The evidence could not be fetched or is not well-formed JSON of the documented shape. */
export const NIGHTJAR_ERROR__ATTESTATION_EVIDENCE = 6001;
/** (a) The quote does not carry the nonce this client just sent (stale, replayed or foreign). */
export const NIGHTJAR_ERROR__ATTESTATION_NONCE = 6002;
/** (a) A certificate chain (quote PCK chain or collateral issuer chain) does not end at the pinned root. */
export const NIGHTJAR_ERROR__ATTESTATION_ROOT = 6003;
/** (a) The quote or its collateral does not verify (signatures, QE identity, TD attributes...). */
export const NIGHTJAR_ERROR__ATTESTATION_QUOTE = 6004;
/** (a) The platform's TCB status is not `UpToDate`. */
export const NIGHTJAR_ERROR__ATTESTATION_TCB = 6005;
/** (a) The client's own collateral source (its PCCS or fetcher) failed; the venue's is not used instead. */
export const NIGHTJAR_ERROR__ATTESTATION_COLLATERAL = 6006;
/** (b) The manifest bytes do not reproduce the quote's report data (or disagree with the manifest shown). */
export const NIGHTJAR_ERROR__ATTESTATION_MANIFEST = 6007;
/** (b) The attested TLS key is not the one on this socket: someone else terminates this TLS connection. */
export const NIGHTJAR_ERROR__ATTESTATION_SPKI = 6008;
/** (c) The event log is malformed, an entry's digest contradicts its payload, or it does not replay to RTMR3. */
export const NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG = 6009;
/** (c) The attested compose hash is not the pinned release value. */
export const NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH = 6010;
/** (c) A platform measurement (MRTD, RTMR0–2) is not the value this client pinned: another CVM image. */
export const NIGHTJAR_ERROR__ATTESTATION_MEASUREMENT = 6011;
/** (d) The manifest's boot session is not the one `/info` reports. */
export const NIGHTJAR_ERROR__ATTESTATION_BOOT_SESSION = 6012;
/** (d) The manifest's signer set is not the finalized on-chain TEE key set. */
export const NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET = 6013;
/** The server's certificate is not valid for the host or not valid now. */
export const NIGHTJAR_ERROR__TRANSPORT_TLS = 6014;
/** The pinned socket is gone; a new one must be opened and verified. */
export const NIGHTJAR_ERROR__TRANSPORT_CLOSED = 6015;
/** Something tried to send on a socket that has not passed verification. */
export const NIGHTJAR_ERROR__TRANSPORT_NOT_VERIFIED = 6016;

// 7000s: the wallet and its notes.
/** No free note of the wallet can back the order (or the withdrawal) as asked. */
export const NIGHTJAR_ERROR__INSUFFICIENT_NOTES = 7001;
/** Notes that would cover it exist but the venue's tree does not have them yet (not final). */
export const NIGHTJAR_ERROR__NOTES_PENDING = 7002;
/** The only notes that would back it are deposits on their fresh-note hold, which ends too late. */
export const NIGHTJAR_ERROR__NOTE_HELD = 7003;
/** The note named cannot be used now (`reason` says why). */
export const NIGHTJAR_ERROR__NOTE_NOT_FREE = 7004;
/** The amounts of a split or merge do not work. Nothing was sent. */
export const NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS = 7005;
/** A merge needs at least two free notes of the mint. */
export const NIGHTJAR_ERROR__NOTHING_TO_MERGE = 7006;
/** A split or merge landed but the venue's tree lacks its outputs within the wait. */
export const NIGHTJAR_ERROR__SPLIT_OUTPUTS_PENDING = 7007;
/** A deposit landed but the venue's tree lacks its note within the wait. */
export const NIGHTJAR_ERROR__DEPOSIT_PENDING = 7008;
/** A withdrawal to an address that funded this wallet's deposits, without `linkFundingAddress`. */
export const NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS = 7009;
/** The order is no longer resting (or is settling): it cannot be modified. */
export const NIGHTJAR_ERROR__ORDER_NOT_MODIFIABLE = 7010;
/** The wallet file cannot be opened (wrong password, or a damaged file). */
export const NIGHTJAR_ERROR__WALLET_DECRYPT = 7011;

// 8000s: the ledger.
/** A ledger call failed with a JSON-RPC error. */
export const NIGHTJAR_ERROR__LEDGER_ERROR = 8001;
/** The ledger could not be reached or did not answer in time. */
export const NIGHTJAR_ERROR__LEDGER_UNAVAILABLE = 8002;
/** The ledger refused a transaction the SDK sent. */
export const NIGHTJAR_ERROR__LEDGER_REFUSED = 8003;
/** A transaction was sent but had not landed when the wait ended; it may still land. */
export const NIGHTJAR_ERROR__TRANSACTION_PENDING = 8004;
/** No faucet: a production ledger, or the ledger is unreachable (then retryable). */
export const NIGHTJAR_ERROR__FAUCET_UNAVAILABLE = 8005;
/** The faucet refused the request (an unknown mint, an amount beyond u64). */
export const NIGHTJAR_ERROR__FAUCET_REFUSED = 8006;

// 9000s: client-side.
/** The network failed (connection refused or reset, a timeout). */
export const NIGHTJAR_ERROR__NETWORK = 9001;
/** The venue answered with a body that does not match the spec (`path: rule`, never a value). */
export const NIGHTJAR_ERROR__INVALID_RESPONSE = 9002;
/** A proof could not be made (bad inclusion path, prover crashed or closed). */
export const NIGHTJAR_ERROR__PROOF = 9003;
/** A value the caller passed is unusable (a decimal with too many places, a price off the tick...). */
export const NIGHTJAR_ERROR__PARAMETER = 9004;
/** Events were dropped from the stream's iterator buffer (nobody took them in time). */
export const NIGHTJAR_ERROR__STREAM_OVERFLOW = 9005;
/** The stream is not connected, or closed with requests in flight. */
export const NIGHTJAR_ERROR__STREAM_CLOSED = 9006;
/** The client was built or used without what the call needs (no ledger, no wallet). */
export const NIGHTJAR_ERROR__CLIENT_CONFIG = 9007;
/** The venue answered with a code this SDK does not know; its family is `venueFamilyOf`. */
export const NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE = 9900;

/** The SDK's own codes and their stable names (today's string codes; never renamed). */
export const SDK_ERROR_NAMES = {
  6001: 'ATTESTATION_EVIDENCE',
  6002: 'ATTESTATION_NONCE',
  6003: 'ATTESTATION_ROOT',
  6004: 'ATTESTATION_QUOTE',
  6005: 'ATTESTATION_TCB',
  6006: 'ATTESTATION_COLLATERAL',
  6007: 'ATTESTATION_MANIFEST',
  6008: 'ATTESTATION_SPKI',
  6009: 'ATTESTATION_EVENT_LOG',
  6010: 'ATTESTATION_COMPOSE_HASH',
  6011: 'ATTESTATION_MEASUREMENT',
  6012: 'ATTESTATION_BOOT_SESSION',
  6013: 'ATTESTATION_SIGNER_SET',
  6014: 'TRANSPORT_TLS',
  6015: 'TRANSPORT_CLOSED',
  6016: 'TRANSPORT_NOT_VERIFIED',
  7001: 'INSUFFICIENT_NOTES',
  7002: 'NOTES_PENDING',
  7003: 'NOTE_HELD',
  7004: 'NOTE_NOT_FREE',
  7005: 'JOIN_SPLIT_AMOUNTS',
  7006: 'NOTHING_TO_MERGE',
  7007: 'SPLIT_OUTPUTS_PENDING',
  7008: 'DEPOSIT_PENDING',
  7009: 'LINKS_FUNDING_ADDRESS',
  7010: 'ORDER_NOT_MODIFIABLE',
  7011: 'WALLET_DECRYPT',
  8001: 'LEDGER_ERROR',
  8002: 'LEDGER_UNAVAILABLE',
  8003: 'LEDGER_REFUSED',
  8004: 'TRANSACTION_PENDING',
  8005: 'FAUCET_UNAVAILABLE',
  8006: 'FAUCET_REFUSED',
  9001: 'NETWORK',
  9002: 'INVALID_RESPONSE',
  9003: 'PROOF',
  9004: 'PARAMETER',
  9005: 'STREAM_OVERFLOW',
  9006: 'STREAM_CLOSED',
  9007: 'CLIENT_CONFIG',
  9900: 'UNKNOWN_VENUE_CODE',
} as const;

/** A code of the SDK's own (not the venue's). */
export type SdkErrorCode = keyof typeof SDK_ERROR_NAMES;

/** Names of the venue's codes (the spec's catalogue names each by its meaning). */
export const VENUE_ERROR_NAMES = {
  1000: 'BAD_REQUEST',
  1001: 'MALFORMED_INPUT',
  1003: 'INSUFFICIENT_COLLATERAL',
  1004: 'AMOUNT_BELOW_MINIMUM',
  1005: 'ZERO_BID_PRICE',
  1006: 'OPENING_MISMATCH',
  1007: 'EXPIRY_TOO_LONG',
  1008: 'BAD_VIEWING_KEY',
  1009: 'PRICE_OFF_TICK',
  1010: 'STALE_ROOT',
  1011: 'INVALID_PROOF',
  1012: 'EXPIRY_PASSED',
  1101: 'UNAUTHENTICATED',
  1102: 'BAD_SIGNATURE',
  1103: 'NOT_ORDER_OWNER',
  1150: 'FORBIDDEN',
  1201: 'DUPLICATE_ORDER_ID',
  1202: 'STALE_NONCE',
  1203: 'REPLACEMENT_ID_TAKEN',
  1204: 'COLLATERAL_IN_USE',
  1205: 'STALE_SESSION',
  1206: 'LAST_ADMIN',
  1301: 'NOT_FOUND',
  1401: 'RATE_LIMITED',
  1402: 'AT_CAPACITY',
  4030: 'ACCOUNT_SWITCH',
  4290: 'TOO_MANY_SOCKETS',
  5000: 'INTERNAL',
  5001: 'UNAVAILABLE',
  5002: 'TREE_DIVERGES',
} as const satisfies Record<VenueErrorCode, string>;

/** Every code a `NightjarError` carries. */
export type NightjarErrorCode = VenueErrorCode | SdkErrorCode;

/** The stable name of each code (`'NOTE_NOT_FREE'`, `'RATE_LIMITED'`...). */
export const NIGHTJAR_ERROR_NAMES = {
  ...VENUE_ERROR_NAMES,
  ...SDK_ERROR_NAMES,
} as const satisfies Record<NightjarErrorCode, string>;

export type NightjarErrorName = (typeof NIGHTJAR_ERROR_NAMES)[NightjarErrorCode];

export function isVenueErrorCode(code: number): code is VenueErrorCode {
  return Object.hasOwn(VENUE_ERROR_NAMES, code);
}

/** The rule-15 check a transport code belongs to ('a' to 'd'), if it is one. */
export type TransportCheck = 'a' | 'b' | 'c' | 'd';

/** The transport verification codes and their check. */
export const TRANSPORT_CHECK = {
  6001: undefined,
  6002: 'a',
  6003: 'a',
  6004: 'a',
  6005: 'a',
  6006: 'a',
  6007: 'b',
  6008: 'b',
  6009: 'c',
  6010: 'c',
  6011: 'c',
  6012: 'd',
  6013: 'd',
  6014: undefined,
  6015: undefined,
  6016: undefined,
} as const satisfies Record<number, TransportCheck | undefined>;

export type TransportErrorCode = keyof typeof TRANSPORT_CHECK;
