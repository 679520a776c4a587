/**
 * The engine as a real child process on a data directory, against a ledger served from the test's
 * own process (so the chain outlives the engine): for the SIGKILL and restart tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMITMENT_LAG, runAsAdmin, type Ledger } from '@nightjar/ledger';
import { SettlementJournal } from '../../src/settlement/journal.js';
import { loadOrCreateTeeKey } from '../../src/settlement/tee-key.js';
import type { TestVenue } from '../harness.js';
import type { HttpsClient } from '../https-client.js';

const CHILD = fileURLToPath(new URL('./engine-child.ts', import.meta.url));

export interface Child {
  proc: ChildProcess;
  url: string;
  cert: string;
  bootSessionId: string;
  admin: { api_key: string; api_secret: string; passphrase: string } | null;
  exited: Promise<NodeJS.Signals | number | null>;
}

export function startChild(env: Record<string, string>): Promise<Child> {
  const proc = spawn(process.execPath, ['--conditions=nightjar-source', '--import', 'tsx', CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    proc.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0]!;
      if (out.includes('\n'))
        resolve({ proc, exited, ...(JSON.parse(line) as Omit<Child, 'proc' | 'exited'>) });
    });
    void exited.then((how) => reject(new Error(`engine child exited (${String(how)}): ${err.slice(-2000)}`)));
  });
}

/**
 * A fresh data directory whose settlement key (and journal) exist before the first boot, with the
 * key added to the ledger's finalized signer set, so the child settles from its first slot.
 */
export async function preparedDataDir(ledger: Ledger, adminSeed: Uint8Array): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nightjar-crash-'));
  const key = loadOrCreateTeeKey(dataDir);
  new SettlementJournal(dataDir, false).close();
  const vault = await ledger.getVault();
  await runAsAdmin(ledger, adminSeed, [
    { name: 'set_tee_keys', args: { keys: [...vault.tee_keys.slice(-8), key.address] } },
  ]);
  await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
  return dataDir;
}

/** Enough of a TestVenue for the harness's Trader, over the child's HTTPS API. */
export async function clientVenue(ledger: Ledger, child: Child, client: HttpsClient) {
  const state = { root: 0n, slot: 0 };
  const refresh = async () => {
    const [root, time] = await Promise.all([client.send('/tree/root?tree_id=0'), client.send('/time')]);
    state.root = BigInt('0x' + root.body.merkle_root);
    state.slot = Number(time.body.slot);
    return Number(root.body.leaf_count);
  };
  const fake = {
    ledger,
    advance: async (slots: number) => {
      await ledger.advanceSlots({ slots });
    },
    engine: {
      url: child.url,
      certificate: { certPem: child.cert },
      bootSessionId: child.bootSessionId,
      context: {
        chain: {
          get slot() {
            return state.slot;
          },
        },
        trees: {
          shard: () => ({ root: state.root }),
          // The child's mirror has every finalized leaf.
          checkAgainstChain: async () => {
            const want = (await ledger.getTreeRoot({ tree_id: 0, commitment: 'finalized' })).leaf_count;
            for (let i = 0; i < 400 && (await refresh()) < want; i++)
              await new Promise((r) => setTimeout(r, 10));
          },
        },
      },
    },
  };
  return { venue: fake as unknown as TestVenue, refresh };
}
