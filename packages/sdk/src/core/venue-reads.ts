/** The venue's plain public reads, shared by the verbs that return them and the helpers under them. */
import { inclusionCodec, instrumentListCodec, orderStatusCodec, timeResponseCodec } from '@nightjar/protocol';
import type { Instrument, OrderStatusResponse } from '@nightjar/protocol';
import type { VenueSession } from './session.js';
import { registerInstrument } from './utils/asset-registry.js';

/** Every instrument the venue lists (each registered as a known asset pair). */
export async function fetchInstruments(session: VenueSession): Promise<Instrument[]> {
  const list = await session.request('/instruments', { auth: false, codec: instrumentListCodec });
  for (const i of list) registerInstrument(i);
  return list;
}

/** The venue's slot and wall-clock time. */
export async function fetchTime(session: VenueSession): Promise<{ slot: bigint; unixMs: number }> {
  const r = await session.request('/time', { auth: false, codec: timeResponseCodec });
  return { slot: r.slot, unixMs: Number(r.unix_ms) };
}

/** One order's status (`GET /orders/{id}`). */
export function fetchOrder(session: VenueSession, orderId: string): Promise<OrderStatusResponse> {
  return session.request(`/orders/${orderId}`, { codec: orderStatusCodec });
}

/** A commitment's inclusion path in the venue's tree mirror (`GET /tree/inclusion`). */
export async function fetchInclusion(
  session: VenueSession,
  commitment: string,
  treeId = 0,
): Promise<{ leafIndex: number; merkleRoot: string; siblings: string[] }> {
  const r = await session.request(`/tree/inclusion?note_commitment=${commitment}&tree_id=${treeId}`, {
    codec: inclusionCodec,
  });
  return { leafIndex: Number(r.leaf_index), merkleRoot: r.merkle_root, siblings: r.siblings };
}
