/** Fetches `/transport-attestation` for a nonce over a pinned socket and parses it strictly. */
import { FieldError, transportAttestationCodec, type TransportAttestationResponse } from '@nightjar/protocol';
import type { PinnedSocket } from './pinned-socket.js';
import { NIGHTJAR_ERROR__ATTESTATION_EVIDENCE, NightjarError } from '../errors/index.js';

export interface FetchTransportEvidenceParameters {
  socket: PinnedSocket;
  nonce: Uint8Array;
}

export type FetchTransportEvidenceReturnType = TransportAttestationResponse;

export async function fetchTransportEvidence(
  params: FetchTransportEvidenceParameters,
): Promise<FetchTransportEvidenceReturnType> {
  const nonce = Buffer.from(params.nonce).toString('hex');
  const r = await params.socket.publicGet(`/transport-attestation?nonce=${nonce}`);
  if (r.status !== 200)
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVIDENCE, {
      detail: `/transport-attestation answered ${r.status}: ${r.text.slice(0, 200)}`,
    });
  try {
    return transportAttestationCodec.parse(r.body);
  } catch (err) {
    if (err instanceof FieldError)
      throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVIDENCE, {
        detail: `malformed transport evidence: ${err.message}`,
      });
    throw err;
  }
}
