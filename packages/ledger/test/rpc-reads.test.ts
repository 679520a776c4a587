/**
 * Issue 28 item 9: sixteen getLeaves readers took an honest deposit from 121 ms to 820 ms (9 s at
 * worst), because reads were unmetered and ran on the writer's event loop. Here a real load
 * generator in its own process floods a real server from one source address (127.0.0.2): it is
 * refused with -32008 once its budget is spent, a deposit from another address (127.0.0.1) lands
 * meanwhile, and every page read was executed by the reader thread, none on the writer's thread.
 * (The latency itself is measured by bench/ledger-reads.bench.ts: timed tests are not reliable.)
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcLedgerClient, serveLedger, type LedgerServer } from '../src/index.js';
import { MAX_LEAVES_PER_READ } from '../src/ledger.js';
import { Actor, makeNote, startHarness, tempDir, USDC, type Harness } from './harness.js';
import { writeLeaves } from './leaves-fixture.js';

const FLOOD = fileURLToPath(new URL('./read-flood.ts', import.meta.url));
const READERS = 16;

/** Lines the child writes to stdout, awaited one at a time. */
function lines(child: ReturnType<typeof spawn>): () => Promise<string> {
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  child.stdout!.on('data', (d) => {
    buffered += d;
    let i: number;
    while ((i = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      const w = waiting.shift();
      if (w) w(line);
      else ready.push(line);
    }
  });
  return () => {
    const line = ready.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
  };
}

describe('ledger reads are metered per address and run off the writer (issue 28 item 9)', () => {
  let h: Harness | undefined;
  let server: LedgerServer | undefined;
  let dir: string | undefined;
  let flood: ReturnType<typeof spawn> | undefined;
  afterEach(async () => {
    // A test that failed midway leaves its load generator running: end it.
    flood?.kill();
    await server?.close();
    await h?.ledger.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A dev ledger in a file whose shard 0 holds more than a page, so every page read is full. */
  async function ledgerWithFullPages(): Promise<Harness> {
    dir = tempDir();
    await (await startHarness({ dataDir: dir })).ledger.close();
    writeLeaves(dir, MAX_LEAVES_PER_READ + 100);
    return startHarness({ dataDir: dir });
  }

  it('16 readers flooding from one address are refused with -32008, another client deposits, the reader thread ran every read', async () => {
    h = await ledgerWithFullPages();
    // Four full pages, then a refill too slow to matter during the test: refusals are deterministic.
    server = await serveLedger(h.ledger, {
      rateLimit: { capacity: 4 * MAX_LEAVES_PER_READ, refillPerSecond: 1 },
    });
    const before = h.ledger.heavyReadsServed;

    const child = (flood = spawn(
      process.execPath,
      ['--conditions=nightjar-source', '--import', 'tsx', FLOOD, server.url, '127.0.0.2', String(READERS)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    ));
    const next = lines(child);
    expect(await next()).toBe('refused');

    // Meanwhile, from 127.0.0.1: a deposit lands and a page of leaves is still served.
    const client = new RpcLedgerClient(server.url, { devSecret: server.devSecret });
    const honest = new Actor();
    await client.requestAirdrop({ owner: honest.address, mint: USDC, amount: '100' });
    const note = makeNote(USDC, 100n);
    const landed = await honest.send(client, 'deposit', {
      tree_id: 0,
      mint: USDC,
      amount: '100',
      note_commitment: note.commitment,
      opening_hash: note.openingHash,
    });
    expect(landed.err).toBeNull();
    const { leaves } = await client.getLeaves({ tree_id: 0, from: MAX_LEAVES_PER_READ, to: 1_000_000 });
    expect(leaves.map((l) => l.value)).toContain(note.commitment);
    await client.close();

    child.stdin!.write('stop\n');
    const counts = JSON.parse(await next()) as { served: number; refused: number; other: number };
    expect(counts).toMatchObject({ served: 4, other: 0 });
    expect(counts.refused).toBeGreaterThan(0);
    // Every page (the flood's and ours) was read by the reader thread; the writer's thread read none.
    const after = h.ledger.heavyReadsServed;
    expect(after.readerThread - before.readerThread).toBe(counts.served + 1);
    expect(after.inThread - before.inThread).toBe(0);
  }, 60_000);

  it('RpcLedgerClient waits and sends again a call refused for the budget; a raw second call is refused', async () => {
    h = await ledgerWithFullPages();
    // One full page, refilled in half a second: the client's retries (100, 200, 400 ms...) outlast it.
    server = await serveLedger(h.ledger, {
      rateLimit: { capacity: MAX_LEAVES_PER_READ, refillPerSecond: 2 * MAX_LEAVES_PER_READ },
    });
    const page = { tree_id: 0, from: 0, to: 1_000_000 };
    const raw = () =>
      fetch(server!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getLeaves', params: page }),
      }).then((r) => r.json());
    expect(await raw()).toMatchObject({ result: { leaves: expect.any(Array) } });
    expect(await raw()).toMatchObject({ error: { code: -32008 } });
    const client = new RpcLedgerClient(server.url);
    await expect(client.getLeaves(page)).resolves.toMatchObject({ leaves: expect.any(Array) });
    await client.close();
  });

  it('a ledger in memory (no file to share) keeps its reads on its own thread', async () => {
    h = await startHarness();
    server = await serveLedger(h.ledger);
    const client = new RpcLedgerClient(server.url);
    await client.getLeaves({ tree_id: 0, from: 0, to: 10 });
    await client.close();
    expect(h.ledger.heavyReadsServed).toEqual({ inThread: 1, readerThread: 0 });
  });
});
