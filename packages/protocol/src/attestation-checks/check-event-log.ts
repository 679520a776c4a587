/**
 * Check (c) on an event log: well formed (every entry's fields in range; a runtime entry's digest
 * is the one its payload gives), exactly one runtime-typed `compose-hash` event and no other entry
 * of that name, replays to the quote's RTMR3, and its compose hash is one of the pinned releases.
 */
import {
  COMPOSE_HASH_EVENT,
  replayRtmr,
  RTMR_BYTES,
  RUNTIME_EVENT_TYPE,
  runtimeEventDigest,
} from '../attestation.js';
import type { EventLogEntryBody } from '../responses.js';
import { AttestationCheckError, type EventLogCheckReason } from './check-error.js';

export interface CheckEventLogParameters {
  eventLog: readonly EventLogEntryBody[];
  /** The quote's RTMR3 (48 bytes). */
  rtmr3: Uint8Array;
  /** The release value(s) the verifier pinned (64 hex each). */
  composeHash: string | readonly string[];
}

export interface CheckEventLogReturnType {
  composeHash: string;
}

const HEX = /^(?:[0-9a-f]{2})*$/;

const refuse = (reason: EventLogCheckReason, detail: string) =>
  new AttestationCheckError('event_log', detail, { reason });

/** One entry's shape; returns its digest bytes and whether it is a runtime compose-hash event. */
function checkEntry(e: EventLogEntryBody, i: number): { digest: Buffer; compose: boolean } {
  const eventType = Number(e.event_type);
  if (!Number.isInteger(e.imr) || e.imr < 0 || e.imr > 3 || !(eventType >= 0 && eventType <= 0xffffffff))
    throw refuse('malformed', `event ${i}: imr or event_type out of range`);
  if (e.digest.length !== RTMR_BYTES * 2 || !HEX.test(e.digest) || !HEX.test(e.event_payload))
    throw refuse('malformed', `event ${i}: digest or payload is not hex of the right width`);
  const digest = Buffer.from(e.digest, 'hex');
  const runtime = eventType === RUNTIME_EVENT_TYPE;
  if (runtime) {
    if (e.imr !== 3) throw refuse('malformed', `event ${i}: a runtime event outside RTMR3`);
    const computed = runtimeEventDigest(eventType, e.event, Buffer.from(e.event_payload, 'hex'));
    if (!digest.equals(computed))
      throw refuse('digest_mismatch', `event ${i} (${e.event}): the digest is not that of its payload`);
  }
  if (e.event === COMPOSE_HASH_EVENT && (!runtime || e.imr !== 3))
    throw refuse('retyped_compose_hash', `event ${i}: a compose-hash event that is not a runtime event`);
  return { digest, compose: e.event === COMPOSE_HASH_EVENT };
}

export function checkEventLog(params: CheckEventLogParameters): CheckEventLogReturnType {
  const imr3: Uint8Array[] = [];
  const composeHashes: string[] = [];
  params.eventLog.forEach((e, i) => {
    const { digest, compose } = checkEntry(e, i);
    if (compose) composeHashes.push(e.event_payload);
    if (e.imr === 3) imr3.push(digest);
  });
  if (composeHashes.length !== 1)
    throw refuse(
      'compose_hash_count',
      `${composeHashes.length} compose-hash events; exactly one is required`,
    );
  if (!Buffer.from(replayRtmr(imr3)).equals(Buffer.from(params.rtmr3)))
    throw refuse('replay_mismatch', 'the event log does not replay to the quote RTMR3');
  const pinned = (typeof params.composeHash === 'string' ? [params.composeHash] : params.composeHash).map(
    (h) => h.toLowerCase(),
  );
  const composeHash = composeHashes[0]!;
  if (!pinned.includes(composeHash))
    throw new AttestationCheckError('compose_hash', 'the attested compose hash is not a pinned release');
  return { composeHash };
}
