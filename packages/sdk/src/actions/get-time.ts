import type { Client } from '../client.js';
import { fetchTime } from '../core/venue-reads.js';
import type { NightjarError } from '../core/errors/index.js';

/** No parameters. */
export type GetTimeParameters = Record<string, never>;

/** The engine's chain slot and wall clock. */
export interface GetTimeReturnType {
  slot: bigint;
  unixMs: number;
}

/**
 * `GET /time`: the current chain slot and wall-clock time (for converting deadlines to slots).
 *
 * @example
 * const { slot } = await getTime(client);
 */
export async function getTime(client: Client, _params: GetTimeParameters = {}): Promise<GetTimeReturnType> {
  return fetchTime(client);
}

/** What `getTime` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetTimeErrorType = NightjarError;
