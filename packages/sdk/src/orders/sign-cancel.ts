/** A cancel signed with the wallet's trading key and a fresh durable nonce. */
import { encodeCancelBody, signCanonical } from '@nightjar/protocol';
import type { Client } from '../client.js';

/** Signs a cancel for `orderId` with a fresh durable `cancel_nonce`. */
export async function signCancel(client: Client, orderId: string) {
  const trading = client.wallet.keys.trading;
  const session = await client.bootSessionId();
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
