/**
 * Ledger benchmark: settle transactions per second (in process and over JSON-RPC), deposits per
 * second, and the time to reopen a ledger holding 1M leaves. Writes docs/benchmarks/ledger.md.
 *
 * Proof checks are stubbed (always valid) so the figures measure the ledger itself; Groth16
 * verification has its own benchmark in packages/crypto.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomFieldElement } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import { Ledger, marketAddress, RpcLedgerClient, serveLedger, type DevLedgerClient } from '../src/index.js';
import { Actor, makeNote, type TestNote } from '../test/harness.js';
import { acceptAll, depositOf, freshLedger, ledgerWithLeaves, SOL } from './fixtures.js';

const SOL_USDC = marketAddress('SOL-USDC');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function deposits(
  client: DevLedgerClient,
  user: Actor,
  n: number,
): Promise<{ notes: TestNote[]; perSecond: number }> {
  await client.requestAirdrop({ owner: user.address, mint: SOL, amount: String(1000 * n) });
  const notes = Array.from({ length: n }, () => makeNote(SOL, 1000n));
  const t0 = performance.now();
  for (const note of notes) {
    await client.sendTransaction({ transaction: depositOf(user, note) });
  }
  return { notes, perSecond: n / ((performance.now() - t0) / 1000) };
}

async function settles(
  client: DevLedgerClient,
  tee: Actor,
  notes: TestNote[],
  rootOf: () => Promise<string>,
): Promise<number> {
  const slot = await client.getSlot();
  const root = await rootOf();
  for (const note of notes) {
    const tx = tee.sign({
      name: 'lock_note',
      args: {
        tree_id: 0,
        merkle_root: root,
        nullifier: note.nullifier,
        use_tag: note.useTag,
        until_slot: String(slot + 1000),
        proof: '11'.repeat(256),
      },
    });
    await client.sendTransaction({ transaction: tx });
  }
  const outputs = notes.map(() => Array.from({ length: 6 }, () => fieldToHex(randomFieldElement())));
  const t0 = performance.now();
  // One match per transaction: two inputs (a bid and an ask), six outputs (settlement v2).
  for (let i = 0; i + 1 < notes.length; i += 2) {
    const tx = tee.sign({
      name: 'settle_batch',
      args: {
        batch_id: String(i),
        market_id: SOL_USDC,
        settle_by_slot: String(slot + 1_000_000),
        matches: [
          {
            match_idx: 0,
            inputs: [notes[i]!, notes[i + 1]!].map((n) => ({ nullifier: n.nullifier })),
            outputs: outputs[i]!.map((commitment) => ({ tree_id: 1, commitment })),
            memos: ['00'.repeat(194), '11'.repeat(194)],
            proof: '11'.repeat(256),
          },
        ],
      },
    });
    await client.sendTransaction({ transaction: tx });
  }
  return Math.floor(notes.length / 2) / ((performance.now() - t0) / 1000);
}

async function throughput(transport: 'in-process' | 'JSON-RPC', n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-bench-'));
  const { ledger, tee } = await freshLedger(dir);
  let client: DevLedgerClient = ledger;
  let server: Awaited<ReturnType<typeof serveLedger>> | undefined;
  if (transport === 'JSON-RPC') {
    server = await serveLedger(ledger);
    client = new RpcLedgerClient(server.url, { devSecret: server.devSecret });
  }
  await tee.sync(client);
  const user = new Actor();
  const dep = await deposits(client, user, n);
  const settle = await settles(
    client,
    tee,
    dep.notes,
    async () => (await client.getTreeRoot({ tree_id: 0 })).merkle_root,
  );
  if (server) await server.close();
  await ledger.close();
  rmSync(dir, { recursive: true, force: true });
  return { deposits: dep.perSecond, settles: settle };
}

/** Times reopening a ledger database holding `n` leaves (written directly, as if deposited). */
async function reopen(n: number) {
  const { dir, root, buildMs } = await ledgerWithLeaves(n);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const l = Ledger.open({ dataDir: dir, clock: { mode: 'manual' }, verifier: acceptAll });
    const r = await l.getTreeRoot({ tree_id: 0 });
    times.push(performance.now() - t0);
    if (r.merkle_root !== fieldToHex(root) || r.leaf_count !== n) throw new Error('reopened tree differs');
    await l.close();
  }
  rmSync(dir, { recursive: true, force: true });
  return { reopenMs: median(times), hashOnceMs: buildMs };
}

async function main() {
  const n = Number(process.env.LEDGER_BENCH_N ?? 2000);
  const leaves = Number(process.env.LEDGER_BENCH_LEAVES ?? 1_000_000);
  const rows: string[] = [];
  const inproc = await throughput('in-process', n);
  const rpc = await throughput('JSON-RPC', n);
  const re = await reopen(leaves);
  rows.push(`| deposits per second | ${inproc.deposits.toFixed(0)} | ${rpc.deposits.toFixed(0)} |`);
  rows.push(
    `| settle transactions per second (1 match, 2 inputs, 6 outputs, 2 memos; VALID_MATCH v2 stubbed) | ${inproc.settles.toFixed(0)} | ${rpc.settles.toFixed(0)} |`,
  );
  const md = `# Ledger benchmark

Run: ${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · Node ${process.version}
Command: \`npm run bench -w packages/ledger\` (${n} deposits and ${n / 2} settlements per transport; SQLite with synchronous=FULL, one fsync per transaction).
Proof checks are stubbed to "valid" here so that the figures measure the ledger; Groth16 costs are in crypto.md.

| measure | in-process | JSON-RPC (loopback) |
|---|---|---|
${rows.join('\n')}

Reopening a ledger that holds ${leaves.toLocaleString('en-US')} leaves (snapshot restore, no rehashing): **${re.reopenMs.toFixed(0)} ms** (median of 3).
For comparison, hashing those leaves into the tree from scratch took ${(re.hashOnceMs / 1000).toFixed(1)} s.
`;
  const out = new URL('../../../docs/benchmarks/ledger.md', import.meta.url);
  writeFileSync(out, md);
  process.stdout.write(md);
}

await main();
