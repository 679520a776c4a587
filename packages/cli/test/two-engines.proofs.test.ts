/**
 * Issue 33 item 3, the CLI: on a venue with markets on two engines (one ledger served over
 * JSON-RPC, shared accounts), `nightjar order place` places one order on each market in one
 * home, and each reaches its own market's engine (real VALID_INPUT proofs: the CLI's own prover).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveLedger, type LedgerServer } from '@nightjar/ledger';
import { writeSecretFile } from '@nightjar/protocol';
import * as kit from '@nightjar/testkit';
import type { TwoEngineVenue } from '@nightjar/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Command, Context } from '../src/command.js';
import { status } from '../src/commands/status.js';
import { orderPlace } from '../src/commands/order.js';
import { credentialsFile, walletFile, type Paths } from '../src/config.js';
import { Output } from '../src/output.js';

let v: TwoEngineVenue;
let server: LedgerServer;
let paths: Paths;
let root: string;

beforeAll(async () => {
  v = await kit.startTwoEngineVenue();
  server = await serveLedger(v.a.ledger, { port: 0 });
  root = mkdtempSync(join(tmpdir(), 'nightjar-cli-two-'));
  paths = { dataDir: join(root, 'data'), home: join(root, 'home') };
  const rootDer = join(paths.dataDir, 'root.der');
  writeSecretFile(rootDer, Buffer.from(kit.pins(v.a).rootCaDer));
  writeSecretFile(
    join(paths.dataDir, 'ready.json'),
    JSON.stringify({
      base_url: v.a.engine.url,
      ledger_url: server.url,
      boot_session_id: v.a.engine.context.bootSessionId,
      compose_hash: kit.pins(v.a).composeHash,
      platform_root: rootDer,
    }),
  );
  // The CLI's home: its credentials, and its wallet funded with one USDC note per order.
  const { credentials } = await v.a.newAccount();
  writeSecretFile(credentialsFile(paths), JSON.stringify(credentials));
  writeSecretFile(join(paths.home, 'wallet-password'), 'pw\n');
  const p = await kit.newParty(v.a, { path: walletFile(paths), client: { credentials } });
  const usdc = (await p.client.instrument(kit.MARKET_A)).quote_mint;
  await kit.fund(p, v.a, usdc, 1_000_000_000n);
  await kit.fund(p, v.a, usdc, 1_000_000_000n);
  await kit.finalize(v.a);
  await v.b.engine.context.trees.checkAgainstChain();
  await p.client.close();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await v?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs `command` with `values` and returns its JSON result. */
async function run<T>(command: Command, values: Context['values']): Promise<T> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const ctx = { values, out: new Output(true), paths, positionals: [], argv: [] } as Context;
    expect(await command.run(ctx)).toBe(0);
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
  return JSON.parse(chunks.join('')) as T;
}
const place = (values: Context['values']) => run<{ order_id: string }>(orderPlace, values);

describe('nightjar order place on two engines', () => {
  it('places on both markets from one home, each order at its market’s engine', async () => {
    const onA = await place({ symbol: kit.MARKET_A, side: 'bid', amount: '1', price: '150' });
    const onB = await place({ symbol: kit.MARKET_B, side: 'bid', amount: '0.1', price: '150' });
    expect(v.a.engine.context.registry.getLive(onA.order_id)).toBeDefined();
    expect(v.b.engine.context.registry.get(onA.order_id)).toBeUndefined();
    expect(v.b.engine.context.registry.getLive(onB.order_id)).toBeDefined();
    expect(v.a.engine.context.registry.get(onB.order_id)).toBeUndefined();
  }, 120_000);

  it('status says which engine serves which market', async () => {
    const { engines } = await run<{ engines: unknown }>(status, {});
    expect(engines).toEqual([
      { base_url: v.a.engine.url, markets: [kit.MARKET_A] },
      { base_url: v.b.engine.url, markets: [kit.MARKET_B] },
    ]);
  });
});
