/** A signed order sent to the venue, and tracked in the wallet once accepted. */
import { placeOrderResponseCodec, type PlaceOrderBody } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { JoinSplitReturnType } from '../notes/run-join-split.js';

/** The accepted order. */
export interface PlacedOrder {
  orderId: string;
  /** Always `accepted`: verified and booked (accepted is not filled). */
  status: 'accepted';
  arrivalSlot: bigint;
  /** The note backing the order. */
  noteCommitment: string;
  /** The signed body as sent. */
  body: PlaceOrderBody;
  /** The split or merge made first because no free note fitted (see `prepareNote`). */
  split?: JoinSplitReturnType;
}

/**
 * Sends a signed order (from `buildOrder`) and tracks it. Orders must reach the venue in nonce
 * order: send built orders one at a time, in the order they were built.
 */
export async function submitOrder(
  client: Client,
  body: PlaceOrderBody,
  noteCommitment: string,
): Promise<PlacedOrder> {
  const wallet = client.wallet;
  try {
    // To the engine serving the market (DESIGN 11): verified and logged in before the body is sent.
    const engine = await client.engineFor(body.symbol);
    const r = await engine.request('/orders', { method: 'POST', body, codec: placeOrderResponseCodec });
    await trackPlaced(client, body, noteCommitment);
    return {
      orderId: r.order_id,
      status: r.status,
      arrivalSlot: r.arrival_slot,
      noteCommitment,
      body,
    };
  } finally {
    wallet.reserved.delete(noteCommitment);
  }
}

/** Records a placed order in the wallet. */
export async function trackPlaced(
  client: Client,
  body: PlaceOrderBody,
  noteCommitment: string,
): Promise<void> {
  const inst = await client.instrument(body.symbol);
  client.wallet.trackOrder({
    orderId: body.order_id,
    symbol: body.symbol,
    side: body.side,
    noteCommitment,
    status: 'pending',
    baseMint: inst.base_mint,
    quoteMint: inst.quote_mint,
    filledQuantity: 0n,
  });
  client.wallet.save();
}
