import { timeResponseCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';

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
  const r = await client.request('/time', { auth: false, codec: timeResponseCodec });
  return { slot: r.slot, unixMs: Number(r.unix_ms) };
}
