/**
 * The one failure the shared attestation checks throw. The SDK maps it onto its `NightjarError`
 * codes (a client verifying an engine); the engine onto a 4xx naming the check's letter (an engine
 * verifying a prover worker). One implementation of each check serves both.
 */

/** Which step failed: (a) nonce, root, quote, tcb; (c) event_log, compose_hash. */
export type AttestationCheckFailure = 'nonce' | 'root' | 'quote' | 'tcb' | 'event_log' | 'compose_hash';

/** Why an event log was refused (the SDK's `EventLogFailure`). */
export type EventLogCheckReason =
  'malformed' | 'digest_mismatch' | 'retyped_compose_hash' | 'compose_hash_count' | 'replay_mismatch';

export class AttestationCheckError extends Error {
  override name = 'AttestationCheckError';

  constructor(
    readonly failure: AttestationCheckFailure,
    readonly detail: string,
    /** `tcb`: the status the quote verified to. `event_log`: the reason. */
    readonly extra: { tcbStatus?: string; reason?: EventLogCheckReason } = {},
  ) {
    super(detail);
  }
}
