/**
 * The engine as a real child process (engine-child.ts) against a ledger served from the test
 * process, so the chain outlives the engine: start it, trade through its HTTPS API, and have its
 * settlement pipeline SIGKILL it at a stage (`NIGHTJAR_CRASH_AT`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { deriveNote } from '@nightjar/crypto';
import { fieldToHex, parseAddress } from '@nightjar/protocol';
import { COMMITMENT_LAG, runAsAdmin, type Ledger } from '@nightjar/ledger';
import { SettlementJournal } from '../../src/settlement/journal.js';
import { loadOrCreateTeeKey, type TeeKey } from '../../src/settlement/tee-key.js';
import { login, SOL, Trader, USDC, type Note, type TestVenue } from '../harness.js';
import { HttpsClient } from '../https-client.js';

const CHILD = fileURLToPath(new URL('./engine-child.ts', import.meta.url));
export const ONE_SOL = 1_000_000_000n;
export const PRICE = 150_000_000n;

export interface Child {
  proc: ChildProcess;
  url: string;
  cert: string;
  bootSessionId: string;
  admin: { api_key: string; api_secret: string; passphrase: string } | null;
  exited: Promise<NodeJS.Signals | number | null>;
}

const running = new Set<ChildProcess>();

/** SIGKILLs every child still running (a failed test must not leave engines behind). */
export function killChildren(): void {
  for (const proc of running) proc.kill('SIGKILL');
}

export function startChild(env: Record<string, string>): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  proc.on('exit', () => running.delete(proc));
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

/** Enough of a TestVenue for the harness's Trader, over the child's HTTPS API. */
export function clientVenue(ledger: Ledger, child: Child, client: HttpsClient): TestVenue {
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
  return fake as unknown as TestVenue;
}

/** A fresh data directory whose settlement key is registered (and finalized) on the ledger. */
export async function registeredDataDir(
  ledger: Ledger,
  adminSeed: Uint8Array,
  dirs: string[],
): Promise<{ dataDir: string; key: TeeKey }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nightjar-crash-'));
  dirs.push(dataDir);
  // The key (and its journal) exist before the first boot, so the test can register the key.
  const key = loadOrCreateTeeKey(dataDir);
  new SettlementJournal(dataDir, false, key.seed).close();
  const vault = await ledger.getVault();
  await runAsAdmin(ledger, adminSeed, [
    { name: 'set_tee_keys', args: { keys: [...vault.tee_keys.slice(-8), key.address] } },
  ]);
  await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
  return { dataDir, key };
}

export interface Crashed {
  alice: Trader;
  bob: Trader;
  usdc: Note;
  sol: Note;
  bid: { order_id: string };
  ask: { order_id: string };
  admin: NonNullable<Child['admin']>;
  memosBefore: number;
}

/**
 * Starts the engine with `NIGHTJAR_CRASH_AT=at`, crosses one bid (1 SOL at PRICE) with an ask,
 * and steps slots until the pipeline SIGKILLs its process.
 */
export async function crashMidSettlement(ledger: Ledger, env: Record<string, string>, at: string) {
  const first = await startChild({ ...env, NIGHTJAR_CRASH_AT: at });
  const client = new HttpsClient(first.url, first.cert);
  const venue = clientVenue(ledger, first, client);
  const adminToken = await login(client, first.admin!);
  const account = async () => {
    const c = await client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
    return login(client, c.body);
  };
  const [aliceToken, bobToken] = [await account(), await account()];
  const alice = new Trader(venue);
  const bob = new Trader(venue);
  const usdc: Note = await alice.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
  const sol: Note = await bob.deposit(SOL, 2n * ONE_SOL);
  const memosBefore = (await ledger.getMemos({ from: 0, to: 10_000 })).memos.length;
  const bid = alice.order(usdc);
  const ask = bob.order(sol, { amount: ONE_SOL, price_limit: PRICE });
  expect((await client.send('/orders', { token: aliceToken, body: bid })).status).toBe(202);
  expect((await client.send('/orders', { token: bobToken, body: ask })).status).toBe(202);

  // Slots until the pipeline kills its process at the stage.
  let how: NodeJS.Signals | number | null | undefined;
  void first.exited.then((h) => (how = h));
  for (let i = 0; i < 300 && how === undefined; i++) {
    await ledger.advanceSlots({ slots: 1 });
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(how).toBe('SIGKILL');
  client.close();
  return { alice, bob, usdc, sol, bid, ask, admin: first.admin!, memosBefore } satisfies Crashed;
}

/** A note's nullifier, as its owner computes it. */
export function nullifierOf(n: Note): string {
  return fieldToHex(
    deriveNote({
      mint: parseAddress(n.mint)!,
      amount: n.amount,
      ownerCommitment: BigInt('0x' + n.ownerCommitment),
      noteInnerHash: BigInt('0x' + n.innerHash),
    }).nullifier,
  );
}
