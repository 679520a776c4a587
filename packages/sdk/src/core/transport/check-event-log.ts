/**
 * Check (c): the event log is well formed (every entry's fields in range; a runtime entry's
 * digest is the one its payload gives), has exactly one runtime-typed `compose-hash` event and no
 * other entry of that name, replays to the quote's RTMR3, and its compose hash is the pinned one.
 */
import {
  COMPOSE_HASH_EVENT,
  replayRtmr,
  RTMR_BYTES,
  RUNTIME_EVENT_TYPE,
  runtimeEventDigest,
  type EventLogEntryBody,
} from '@nightjar/protocol';
import {
  NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH,
  NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG,
  NightjarError,
} from '../errors/index.js';

export interface CheckEventLogParameters {
  eventLog: readonly EventLogEntryBody[];
  /** The quote's RTMR3 (48 bytes). */
  rtmr3: Uint8Array;
  /** The release value this client pinned (64 hex). */
  composeHash: string;
}

export interface CheckEventLogReturnType {
  composeHash: string;
}

const HEX = /^(?:[0-9a-f]{2})*$/;

export function checkEventLog(params: CheckEventLogParameters): CheckEventLogReturnType {
  const imr3: Uint8Array[] = [];
  let composeEvents = 0;
  let composeHash = '';
  params.eventLog.forEach((e, i) => {
    const eventType = Number(e.event_type);
    if (!Number.isInteger(e.imr) || e.imr < 0 || e.imr > 3 || !(eventType >= 0 && eventType <= 0xffffffff))
      throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
        reason: 'malformed',
        detail: `event ${i}: imr or event_type out of range`,
      });
    if (e.digest.length !== RTMR_BYTES * 2 || !HEX.test(e.digest) || !HEX.test(e.event_payload))
      throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
        reason: 'malformed',
        detail: `event ${i}: digest or payload is not hex of the right width`,
      });
    const digest = Buffer.from(e.digest, 'hex');
    const runtime = eventType === RUNTIME_EVENT_TYPE;
    if (runtime) {
      if (e.imr !== 3)
        throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
          reason: 'malformed',
          detail: `event ${i}: a runtime event outside RTMR3`,
        });
      const computed = runtimeEventDigest(eventType, e.event, Buffer.from(e.event_payload, 'hex'));
      if (!digest.equals(computed))
        throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
          reason: 'digest_mismatch',
          detail: `event ${i} (${e.event}): the digest is not that of its payload`,
        });
    }
    if (e.event === COMPOSE_HASH_EVENT) {
      if (!runtime || e.imr !== 3)
        throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
          reason: 'retyped_compose_hash',
          detail: `event ${i}: a compose-hash event that is not a runtime event`,
        });
      composeEvents++;
      composeHash = e.event_payload;
    }
    if (e.imr === 3) imr3.push(digest);
  });
  if (composeEvents !== 1)
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
      reason: 'compose_hash_count',
      detail: `${composeEvents} compose-hash events; exactly one is required`,
    });
  if (!Buffer.from(replayRtmr(imr3)).equals(Buffer.from(params.rtmr3)))
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG, {
      reason: 'replay_mismatch',
      detail: 'the event log does not replay to the quote RTMR3',
    });
  if (composeHash !== params.composeHash.toLowerCase())
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH, {
      detail: 'the attested compose hash is not the pinned release',
    });
  return { composeHash };
}
