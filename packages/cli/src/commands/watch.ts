/** `nightjar watch`: live orders, fills and tree events as readable lines (JSON lines with --json). */
import { existsSync } from 'node:fs';
import { createStream, stateWithLabel, type StreamClientEvent } from '@nightjar/sdk';
import { STREAM_CHANNELS, type StreamChannel } from '@nightjar/protocol';
import { positiveIntOption, UsageError } from '../args.js';
import { walletFile } from '../config.js';
import { connect, openWallet } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { toJson } from '../output.js';
import { str, type Command } from '../command.js';

function describe(e: StreamClientEvent): string {
  const time = new Date().toISOString().slice(11, 23);
  switch (e.type) {
    case 'order': {
      const ev = e.event;
      const extra = [
        ev.filled_quantity !== undefined ? `filled ${ev.filled_quantity}` : '',
        ev.match_id ? `match ${ev.match_id}` : '',
        ev.reason ? `reason ${ev.reason}` : '',
        e.source === 'resync' ? '(from resync)' : '',
      ].filter(Boolean);
      return `${time} order ${ev.order_id} ${stateWithLabel(ev.kind)}${extra.length ? ' ' + extra.join(' ') : ''}`;
    }
    case 'fill':
      return `${time} fill  ${e.event.order_id} match ${e.event.match_id} batch ${e.event.batch_id} memo ${e.stored ? 'stored in wallet' : 'received'}`;
    case 'tree':
      return `${time} tree  shard ${e.event.tree_id} leaf ${e.event.leaf_index} root ${e.event.merkle_root.slice(0, 16)}…`;
    case 'disconnected':
      return `${time} disconnected (${e.reason}${e.code === undefined ? '' : `, close ${e.code}`}), reconnecting`;
    case 'resync':
      return `${time} resync after ${e.reason}`;
    case 'reconnected':
      return `${time} reconnected after ${e.downtimeMs} ms`;
    case 'error':
      return `${time} error ${e.error.message}`;
  }
}

function toData(e: StreamClientEvent): unknown {
  if (e.type === 'error') return { type: 'error', message: e.error.message };
  return JSON.parse(toJson(e)) as unknown;
}

export const watch: Command = {
  name: 'watch',
  summary: 'live orders, fills and tree events',
  usage: `nightjar watch [--channels orders,fills,tree] [--until KIND [--count N]] [--timeout SECONDS]

  --channels LIST   default orders,fills,tree
  --until KIND      exit 0 after N order events of this kind (e.g. fully_filled)
  --count N         how many (default 1)
  --timeout S       exit ${EXIT.timeout} if --until is not reached in S seconds
  With --json the first line is {"type":"subscribed","channels":[...]} once the stream is live.
  Uses the wallet (when there is one) to verify and store fill memos as they come.`,
  options: {
    channels: { type: 'string' },
    until: { type: 'string' },
    count: { type: 'string' },
    timeout: { type: 'string' },
  },
  async run({ out, paths, values }) {
    const channels = (str(values, 'channels') ?? STREAM_CHANNELS.join(',')).split(',') as StreamChannel[];
    for (const c of channels)
      if (!(STREAM_CHANNELS as readonly string[]).includes(c))
        throw new UsageError(`unknown channel ${c}: one of ${STREAM_CHANNELS.join(', ')}`);
    const until = str(values, 'until');
    const count = positiveIntOption('count', str(values, 'count'), 1);
    const timeoutS = str(values, 'timeout')
      ? positiveIntOption('timeout', str(values, 'timeout'), 1)
      : undefined;
    const wallet = existsSync(walletFile(paths)) ? openWallet(paths) : undefined;
    const client = await connect(paths, wallet ? { wallet } : {});
    try {
      const stream = await createStream(client, { channels });
      // With --json the first line says the stream is live, so a script can act on that.
      if (out.json) out.line({ type: 'subscribed', channels }, '');
      else out.info(`watching ${channels.join(', ')} (Ctrl-C to stop)`);
      let seen = 0;
      const code = await new Promise<number>((resolve) => {
        const timer = timeoutS
          ? setTimeout(() => {
              out.info(`timeout: ${seen} of ${count} ${until ?? ''} after ${timeoutS}s`);
              resolve(EXIT.timeout);
            }, timeoutS * 1000)
          : undefined;
        let stopping = false;
        const stop = (graceMs: number) => {
          if (stopping) return;
          stopping = true;
          if (timer) clearTimeout(timer);
          // A fill memo can trail its order event: give it a moment to arrive and be stored.
          setTimeout(() => resolve(0), graceMs);
        };
        process.once('SIGINT', () => stop(0));
        process.once('SIGTERM', () => stop(0));
        const handle = (e: StreamClientEvent) => {
          if (stopping && e.type === 'error') return;
          out.line(toData(e), describe(e));
          if (until && e.type === 'order' && e.event.kind === until && ++seen >= count) stop(1_500);
        };
        for (const t of ['order', 'fill', 'tree', 'resync', 'error'] as const) stream.on(t, handle);
      });
      await stream.close();
      return code;
    } finally {
      await client.close();
    }
  },
};
