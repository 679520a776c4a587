/**
 * `nightjar ledger`: the embedded chain as its own JSON-RPC server. Prints its URL once it answers;
 * Ctrl-C (SIGINT) or SIGTERM closes it cleanly, keeping its state in the data directory.
 */
import { resolve } from 'node:path';
import { loadVerificationKey } from '@nightjar/circuits';
import {
  createGroth16Verifier,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  serveLedger,
} from '@nightjar/ledger';
import { parseOptions, portOption, positiveIntOption } from '../args.js';

export const LEDGER_USAGE = `nightjar ledger [--port P] [--host H] [--data-dir D] [--slot-ms N] [--manual-clock] [--no-dev]

  --port P        port to listen on (default 8899; 0 picks a free one)
  --host H        interface to bind (default 127.0.0.1)
  --data-dir D    where the chain's state lives (default ./.nightjar/ledger)
  --slot-ms N     slot length in milliseconds (default 400)
  --manual-clock  slots advance only through dev_advanceSlots (for tests)
  --no-dev        no faucet, no fault injection, no dev genesis
`;

export interface RunningLedger {
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export async function startLedger(argv: string[]): Promise<RunningLedger> {
  const opts = parseOptions(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'slot-ms': { type: 'string' },
    'manual-clock': { type: 'boolean' },
    'no-dev': { type: 'boolean' },
  });
  const dataDir = resolve(opts['data-dir'] ?? '.nightjar/ledger');
  const dev = !opts['no-dev'];
  const verifier = await createGroth16Verifier({
    valid_input: await loadVerificationKey('valid_input'),
    valid_spend: await loadVerificationKey('valid_spend'),
  });
  const ledger = Ledger.open({
    dataDir,
    dev,
    verifier,
    clock: {
      mode: opts['manual-clock'] ? 'manual' : 'auto',
      slotMs: positiveIntOption('slot-ms', opts['slot-ms'], 400),
    },
  });
  if (dev) await ensureDevGenesis(ledger, loadOrCreateDevKeys(dataDir));
  const server = await serveLedger(ledger, {
    host: opts.host ?? '127.0.0.1',
    port: portOption(opts.port, 8899),
  });
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    async close() {
      await server.close();
      await ledger.close();
    },
  };
}
