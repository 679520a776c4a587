/**
 * `createStream`: the stream client over its connection, and, when the client has a wallet, the
 * wallet following it (`follow-stream.ts`): order events update the tracked orders, fill
 * memos are verified and stored, and a reconnect re-reads the wallet, before a program sees them.
 */
import type { Client } from './client.js';
import { EngineStreams } from './core/stream/engine-streams.js';
import { StreamClient } from './core/stream/stream-client.js';
import { unfollowed } from './core/stream/unfollowed.js';
import type { CreateStreamParameters } from './core/stream/types.js';
import { followStream } from './follow-stream.js';

/**
 * Opens the stream: a verified WebSocket to each engine of the venue, logged in and subscribed,
 * merged into one (each event says its `engine`).
 *
 * @example
 * const stream = await createStream(client, { channels: ['orders', 'fills'] });
 * stream.on('order', ({ event }) => console.log(event.order_id, event.kind));
 * for await (const e of stream) if (e.type === 'resync') console.log('resynced');
 */
export async function createStream(
  client: Client,
  params: CreateStreamParameters = {},
): Promise<StreamClient> {
  // One stream per engine of the venue (the client's own first), merged; an engine that cannot
  // be opened is an `error` event naming it, and the others' events keep coming.
  const connection = new EngineStreams(await client.engines(), params);
  const events = client.hasWallet ? followStream(client, connection) : unfollowed(connection);
  const stream = new StreamClient(connection, events, params.maxQueuedEvents);
  await stream.connect();
  return stream;
}
