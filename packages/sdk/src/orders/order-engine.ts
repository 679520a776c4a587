/**
 * Which engine holds an order: its market's (the symbol given, or the one the wallet recorded
 * when it placed the order); for an order the wallet does not know, each engine is asked, and
 * NOT_FOUND (1301) only when every one says so.
 */
import type { OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { VenueSession } from '../core/session.js';
import { fetchOrder } from '../core/venue-reads.js';
import { isNightjarError, venueError } from '../core/errors/index.js';

/** The engine serving the order's market when it is known without asking; else undefined. */
export function knownOrderEngine(
  client: Client,
  orderId: string,
  symbol?: string,
): Promise<VenueSession> | undefined {
  const market = symbol ?? (client.hasWallet ? client.wallet.orders.get(orderId)?.symbol : undefined);
  return market === undefined ? undefined : client.engineFor(market);
}

/** The order's status and the engine that answered it. */
export async function findOrder(
  client: Client,
  orderId: string,
  symbol?: string,
): Promise<{ engine: VenueSession; status: OrderStatusResponse }> {
  const known = knownOrderEngine(client, orderId, symbol);
  if (known) {
    const engine = await known;
    return { engine, status: await fetchOrder(engine, orderId) };
  }
  const engines = await client.engines();
  // One engine (an old venue, or one engine for every market): its answer, as it is.
  if (engines.length === 1 && engines[0]!.session) {
    const engine = engines[0]!.session;
    return { engine, status: await fetchOrder(engine, orderId) };
  }
  let unreachable: unknown;
  for (const entry of engines) {
    if (!entry.session) {
      unreachable ??= entry.error;
      continue;
    }
    try {
      return { engine: entry.session, status: await fetchOrder(entry.session, orderId) };
    } catch (err) {
      if (!isNightjarError(err, 1301)) throw err;
    }
  }
  // An engine that could not be asked may hold it: say so rather than "not found".
  if (unreachable) throw unreachable;
  throw venueError(1301, 404, 'no engine of the venue knows that order');
}

/**
 * The engine to send an operation on the order to: its market's; with one engine, that one; else
 * the engine that knows the order (each is asked).
 */
export async function orderEngine(client: Client, orderId: string, symbol?: string): Promise<VenueSession> {
  const known = knownOrderEngine(client, orderId, symbol);
  if (known) return known;
  const engines = await client.engines();
  if (engines.length === 1 && engines[0]!.session) return engines[0]!.session;
  return (await findOrder(client, orderId)).engine;
}
