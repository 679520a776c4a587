/**
 * Check (c): the event log is well formed, has exactly one runtime-typed `compose-hash` event and
 * no other entry of that name, replays to the quote's RTMR3, and its compose hash is the pinned
 * one. The check lives in `@nightjar/protocol/attestation-checks` (shared with the engine's
 * verification of its prover workers); here its refusals become the client's error codes.
 */
import * as shared from '@nightjar/protocol/attestation-checks';
import { asClientCheck } from './check-failure.js';

export interface CheckEventLogParameters extends Omit<shared.CheckEventLogParameters, 'composeHash'> {
  /** The release value this client pinned (64 hex). */
  composeHash: string;
}

export type CheckEventLogReturnType = shared.CheckEventLogReturnType;

export function checkEventLog(params: CheckEventLogParameters): CheckEventLogReturnType {
  return asClientCheck(() => shared.checkEventLog(params));
}
