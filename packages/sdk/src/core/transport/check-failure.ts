/**
 * The shared checks (`@nightjar/protocol/attestation-checks`) throw `AttestationCheckError`; a
 * client sees the SDK's `NightjarError` codes for the same failures, as before the move.
 */
import { AttestationCheckError } from '@nightjar/protocol/attestation-checks';
import {
  NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH,
  NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG,
  NIGHTJAR_ERROR__ATTESTATION_NONCE,
  NIGHTJAR_ERROR__ATTESTATION_QUOTE,
  NIGHTJAR_ERROR__ATTESTATION_ROOT,
  NIGHTJAR_ERROR__ATTESTATION_TCB,
  NightjarError,
} from '../errors/index.js';

function asNightjarError(err: AttestationCheckError): NightjarError {
  const detail = err.detail;
  switch (err.failure) {
    case 'nonce':
      return new NightjarError(NIGHTJAR_ERROR__ATTESTATION_NONCE, { detail });
    case 'root':
      return new NightjarError(NIGHTJAR_ERROR__ATTESTATION_ROOT, { detail });
    case 'quote':
      return new NightjarError(NIGHTJAR_ERROR__ATTESTATION_QUOTE, { detail });
    case 'tcb':
      return new NightjarError(NIGHTJAR_ERROR__ATTESTATION_TCB, { tcbStatus: err.extra.tcbStatus ?? '' });
    case 'event_log':
      return new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
        reason: err.extra.reason ?? 'malformed',
        detail,
      });
    case 'compose_hash':
      return new NightjarError(NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH, { detail });
  }
}

/** Runs a shared check, rethrowing its refusal as the client's `NightjarError`. */
export function asClientCheck<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof AttestationCheckError) throw asNightjarError(err);
    throw err;
  }
}
