/** Each engine's live orders of the account, for the reads and cancels that span every market. */
import { accountOrdersCodec, type OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { engineError } from '../core/engines.js';
import { isNightjarError, type NightjarError } from '../core/errors/index.js';

/** One engine's live orders, or why they could not be read. */
export type EngineOrders =
  | { baseUrl: string; orders: OrderStatusResponse[]; error?: undefined }
  | { baseUrl: string; orders?: undefined; error: NightjarError };

/**
 * `GET /account/orders` at every engine of the venue (each lists the markets it serves). The
 * client's own engine failing is thrown as it is (a suspended account, say); another engine's
 * failure is its entry's `error`, naming it.
 */
export async function openOrdersByEngine(client: Client): Promise<EngineOrders[]> {
  const engines = await client.engines();
  return Promise.all(
    engines.map(async (entry, index): Promise<EngineOrders> => {
      if (!entry.session) return { baseUrl: entry.baseUrl, error: entry.error };
      try {
        const orders = await entry.session.request('/account/orders', { codec: accountOrdersCodec });
        return { baseUrl: entry.baseUrl, orders };
      } catch (err) {
        if (index === 0 || !isNightjarError(err)) throw err;
        return { baseUrl: entry.baseUrl, error: engineError(entry.baseUrl, err) };
      }
    }),
  );
}
