/**
 * One crossing pair settled by an engine child process (the test kit's `startEngineProcess`) that its pipeline
 * SIGKILLs at a stage (`NIGHTJAR_CRASH_AT`), for the restart tests; every child started through
 * the test kit is killed by `killEngineProcesses` if a test fails half-way.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  serveLedger,
  type LedgerServer,
} from '@nightjar/ledger';
import { HttpsClient, login, SOL, Trader, USDC, type Credentials, type Note } from '@nightjar/testkit';
import { killEngineProcesses, startEngineProcess, type EngineChild } from '@nightjar/testkit/process';
import { clientVenue, preparedDataDir } from './engine-process.js';

export const ONE_SOL = 1_000_000_000n;
export const PRICE = 150_000_000n;

/** What a crash test file runs against: one dev ledger on a manual clock, served over JSON-RPC. */
export interface CrashLedger {
  readonly ledger: Ledger;
  readonly server: LedgerServer;
  /** A data directory prepared for an engine child (removed after the file). */
  dataDir(): Promise<string>;
}

/**
 * Registers the file's hooks: the served ledger before its tests; after them every child killed,
 * the ledger closed and the data directories removed.
 */
export function crashLedger(): CrashLedger {
  const devKeys = loadOrCreateDevKeys(undefined);
  const dirs: string[] = [];
  let ledger: Ledger | undefined;
  let server: LedgerServer | undefined;
  beforeAll(async () => {
    ledger = Ledger.open({ clock: { mode: 'manual' }, dev: true, verifier: { verify: async () => true } });
    await ensureDevGenesis(ledger, devKeys);
    await ledger.advanceSlots({ slots: 40 });
    server = await serveLedger(ledger, { port: 0 });
  });
  afterAll(async () => {
    killEngineProcesses();
    await server?.close();
    await ledger?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    get ledger() {
      return ledger!;
    },
    get server() {
      return server!;
    },
    async dataDir() {
      const dir = await preparedDataDir(ledger!, devKeys.adminSeed);
      dirs.push(dir);
      return dir;
    },
  };
}

export interface Crashed {
  alice: Trader;
  bob: Trader;
  usdc: Note;
  sol: Note;
  bid: { order_id: string };
  ask: { order_id: string };
  admin: NonNullable<EngineChild['admin']>;
  /** Alice's (the bid's) account credentials, to log in again after a restart. */
  aliceCredentials: Credentials;
  memosBefore: number;
}

/**
 * Starts the engine with `NIGHTJAR_CRASH_AT=at`, crosses a bid for 1 SOL at PRICE with an ask
 * from a 2 SOL note, and steps slots until the pipeline SIGKILLs its process.
 */
export async function crashMidSettlement(
  ledger: Ledger,
  env: Record<string, string>,
  at: string,
): Promise<Crashed> {
  const first = await startEngineProcess({ ...env, NIGHTJAR_CRASH_AT: at });
  const client = new HttpsClient(first.url, first.cert);
  const { venue } = await clientVenue(ledger, first, client);
  const adminToken = await login(client, first.admin!);
  const credentials: Credentials[] = [];
  const account = async () => {
    const c = await client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
    credentials.push(c.body);
    return login(client, c.body);
  };
  const [aliceToken, bobToken] = [await account(), await account()];
  const alice = new Trader(venue);
  const bob = new Trader(venue);
  const usdc = await alice.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
  const sol = await bob.deposit(SOL, 2n * ONE_SOL);
  const memosBefore = (await ledger.getMemos({ from: 0, to: 10_000 })).memos.length;
  const bid = alice.order(usdc);
  const ask = bob.order(sol, { amount: ONE_SOL, price_limit: PRICE });
  expect((await client.send('/orders', { token: aliceToken, body: bid })).status).toBe(202);
  expect((await client.send('/orders', { token: bobToken, body: ask })).status).toBe(202);

  await steppedUntilKilled(ledger, first);
  client.close();
  return {
    alice,
    bob,
    usdc,
    sol,
    bid,
    ask,
    admin: first.admin!,
    aliceCredentials: credentials[0]!,
    memosBefore,
  };
}

/**
 * Steps the ledger's slots until `child`'s pipeline SIGKILLs itself at its crash point (polling:
 * the child learns of each slot over the ledger's event socket), and checks that it did.
 */
export async function steppedUntilKilled(ledger: Ledger, child: EngineChild): Promise<void> {
  let how: NodeJS.Signals | number | null | undefined;
  void child.exited.then((h) => (how = h));
  for (let i = 0; i < 300 && how === undefined; i++) {
    await ledger.advanceSlots({ slots: 1 });
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(how).toBe('SIGKILL');
}
