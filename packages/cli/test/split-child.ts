/**
 * Child process of split-crash.proofs.test.ts: opens the CLI's wallet of `NIGHTJAR_HOME` and splits
 * its USDC note into 4, then stops at `STOP_AT` so the parent can SIGKILL it there:
 *  - `proving`: before anything is sent;
 *  - `sent`: the ledger accepted the join_split (it has landed) but the wallet never heard back,
 *    so its file still shows the input free and knows no output.
 * It prints `AT <point>` and hangs on a promise that never settles (the kill is the only way out).
 */
import { RpcLedgerClient, type LedgerClient } from '@nightjar/ledger';
import { createClient, splitNote } from '@nightjar/sdk';
import { readReady, resolvePaths, stateDir } from '../src/config.js';
import { cliCredentials, openWallet, pinnedRoot } from '../src/connect.js';

const stopAt = process.env.STOP_AT as 'proving' | 'sent';
const paths = resolvePaths({});
const ready = readReady(paths);
const hang = () => new Promise<never>(() => {});
const announce = (point: string) => process.stdout.write(`AT ${point}\n`);

const rpc = new RpcLedgerClient(ready.ledger_url);
const ledger = new Proxy(rpc, {
  get(target, prop, receiver) {
    if (prop === 'sendTransaction' && stopAt === 'sent')
      return async (params: Parameters<LedgerClient['sendTransaction']>[0]) => {
        await target.sendTransaction(params);
        announce('sent');
        return hang();
      };
    const value = Reflect.get(target, prop, receiver) as unknown;
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  },
}) as LedgerClient;

const wallet = openWallet(paths);
const client = await createClient({
  baseUrl: ready.base_url,
  pinnedRoot: pinnedRoot(ready),
  composeHash: ready.compose_hash,
  ledger,
  credentials: await cliCredentials(paths, ready),
  wallet,
  stateDir: stateDir(paths),
});
const usdc = (await client.instrument('SOL-USDC')).quote_mint;
await splitNote(client, {
  mint: usdc,
  into: 4,
  onProgress: (p) => {
    if (p.stage === 'proving' && stopAt === 'proving') {
      announce('proving');
      // Nothing else may happen before the kill: block this process's event loop for good.
      for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    }
  },
});
process.stdout.write('DONE\n');
