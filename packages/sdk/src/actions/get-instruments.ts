import type { Instrument } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { fetchInstruments } from '../core/venue-reads.js';
import type { NightjarError } from '../core/errors/index.js';

/** No parameters. */
export type GetInstrumentsParameters = Record<string, never>;
/** Every market of the venue. */
export type GetInstrumentsReturnType = Instrument[];

/**
 * `GET /instruments`: every market's metadata (mints, decimals, `price_scale`, tick, fee).
 *
 * @example
 * const markets = await getInstruments(client);
 */
export async function getInstruments(
  client: Client,
  _params: GetInstrumentsParameters = {},
): Promise<GetInstrumentsReturnType> {
  return fetchInstruments(client);
}

/** What `getInstruments` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetInstrumentsErrorType = NightjarError;
