/** A cancel signed with the wallet's trading key and a fresh durable nonce. */
import { encodeCancelBody, signCanonical } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { VenueSession } from '../core/session.js';

/**
 * Signs a cancel for `orderId` with a fresh durable `cancel_nonce`, for the boot session of
 * `engine` (the engine holding the order; default the client's own).
 */
export async function signCancel(client: Client, orderId: string, engine: VenueSession = client) {
  const trading = client.wallet.keys.trading;
  const session = await engine.bootSessionId();
  const nonce = client.nonces.next(trading.publicKey, 'cancel');
  const signature = signCanonical(
    trading.seed,
    encodeCancelBody({
      order_id: orderId,
      trading_key: trading.publicKey,
      cancel_nonce: nonce,
      session_id: session,
    }),
  );
  return {
    trading_key: trading.publicKey,
    cancel_nonce: nonce.toString(),
    session_id: session,
    trading_key_signature: signature,
  };
}
