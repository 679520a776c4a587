/**
 * 28.4 over a real server and a second process: a flooder (junk-flooder.ts) sends join-splits
 * with junk proofs, each from a new key with a fresh signer's work, while their proofs are held
 * in a slow verifier. They take only what fresh signers from one address may hold; honest
 * deposits from a signer with history (same address) and from a fresh signer at another address
 * are still admitted and land; a fresh signer without the work is refused before any proof is
 * looked at; and once judged, the junk is refused, stored nowhere, its signers' nonces unused.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { addressToBase58, ed25519PublicKey } from '@nightjar/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_ADMISSION_LIMITS,
  leadingZeroBits,
  RpcLedgerClient,
  serveLedger,
  signTransaction,
  transactionDigest,
  type Instruction,
  type Transaction,
} from '../src/index.js';
import { makeNote, openDevLedger, SOL } from './harness.js';
import { junkJoinSplit } from './junk-join-split.js';

const FLOODER = fileURLToPath(new URL('./junk-flooder.ts', import.meta.url));
const WORK_BITS = 8;
const FLOOD = DEFAULT_ADMISSION_LIMITS.freshPerSource + 16;

/** JSON-RPC over HTTP from a chosen local address (another source than 127.0.0.1). */
function rpcFrom(localAddress: string, url: string, method: string, params: unknown) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise<{ result?: unknown; error?: { code: number; message: string } }>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(JSON.parse(text) as never));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The flooder process; `line(p)` resolves with the first JSON line (past or future) matching `p`. */
function startFlooder(url: string, count: number) {
  const proc = spawn(
    process.execPath,
    ['--conditions=nightjar-source', '--import', 'tsx', FLOODER, url, String(count)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const seen: Record<string, unknown>[] = [];
  const waiting: {
    p: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }[] = [];
  let buffer = '';
  proc.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
      buffer = buffer.slice(nl + 1);
      seen.push(line);
      for (const w of waiting.filter((w) => w.p(line))) w.resolve(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
  return {
    proc,
    exited,
    line(p: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      const found = seen.find(p);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiting.push({ p, resolve });
        void exited.then((code) => reject(new Error(`flooder exited (${code}) before the line came`)));
      });
    },
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups.length = 0;
});

describe('junk proofs from fresh keys (28.4)', () => {
  it('fill only the fresh share of their address; honest deposits are admitted and land; junk is never stored', async () => {
    const { ledger, verifier } = await openDevLedger(WORK_BITS);
    cleanups.push(() => ledger.close());
    const server = await serveLedger(ledger);
    cleanups.push(() => server.close());
    const client = new RpcLedgerClient(server.url);
    cleanups.push(() => client.close());
    const chain = await client.getChain();
    expect(await client.getVault()).toMatchObject({ fresh_signer_work_bits: WORK_BITS });

    /** A funded signer's deposit transaction (the faucet, in process, is no signed transaction). */
    const depositFrom = async (seed: Uint8Array, nonce: bigint, fresh: boolean) => {
      const owner = addressToBase58(ed25519PublicKey(seed));
      await ledger.requestAirdrop({ owner, mint: SOL, amount: '5' });
      const note = makeNote(SOL, 5n);
      const ins: Instruction = {
        name: 'deposit',
        args: {
          tree_id: 0,
          mint: SOL,
          amount: '5',
          note_commitment: note.commitment,
          opening_hash: note.openingHash,
        },
      };
      return signTransaction(seed, nonce, ins, chain, { fresh });
    };
    const landed = async (tx: Transaction) => (await client.getTransaction({ signature: tx.signature }))?.err;

    // Alice has history: one deposit landed (her first, with the work).
    const alice = Uint8Array.from(randomBytes(32));
    const first = await depositFrom(alice, 1n, true);
    await client.sendTransaction({ transaction: first });
    expect(await landed(first)).toBeNull();

    // The flood: its proofs wait in the verifier, holding their places.
    const release = verifier.hold('valid_join_split_v2');
    cleanups.push(async () => release());
    const flooder = startFlooder(server.url, FLOOD);
    cleanups.push(async () => {
      flooder.proc.kill();
      await flooder.exited;
    });
    const limit = DEFAULT_ADMISSION_LIMITS.freshPerSource;
    await flooder.line((l) => l.refused === FLOOD - limit);
    expect(verifier.calls).toHaveLength(limit);

    // Another fresh signer at the flooder's address finds its share full...
    const bob = await depositFrom(Uint8Array.from(randomBytes(32)), 1n, true);
    await expect(client.sendTransaction({ transaction: bob })).rejects.toMatchObject({ code: -32007 });
    // ...but a signer with history at that address is admitted and lands,
    const second = await depositFrom(alice, BigInt(first.nonce) + 1n, false);
    await client.sendTransaction({ transaction: second });
    expect(await landed(second)).toBeNull();
    // and so is a fresh signer at another address.
    const carol = await depositFrom(Uint8Array.from(randomBytes(32)), 1n, true);
    expect(await rpcFrom('127.0.0.2', server.url, 'sendTransaction', { transaction: carol })).toMatchObject({
      result: { signature: carol.signature },
    });
    expect(await landed(carol)).toBeNull();

    // A fresh signer without the work is refused before anything costly: no proof is verified.
    const daveSeed = Uint8Array.from(randomBytes(32));
    const dave = addressToBase58(ed25519PublicKey(daveSeed));
    const junk = junkJoinSplit((await client.getTreeRoot({ tree_id: 0 })).merkle_root);
    let nonce = 1n;
    while (leadingZeroBits(transactionDigest(chain.chain_id, dave, String(nonce), junk)) >= WORK_BITS)
      nonce++;
    const lazy = signTransaction(daveSeed, nonce, junk, chain);
    const calls = verifier.calls.length;
    const refusal = await rpcFrom('127.0.0.2', server.url, 'sendTransaction', { transaction: lazy });
    expect(refusal.error).toMatchObject({ code: -32002, message: expect.stringMatching(/zero bits/) });
    expect(verifier.calls.length).toBe(calls);

    // Judged: every admitted junk proof is refused (-32002), the rest were refused for load.
    release();
    const done = await flooder.line((l) => l.done === true);
    const outcomes = done.outcomes as string[];
    expect(outcomes.filter((o) => o === '-32002')).toHaveLength(limit);
    expect(outcomes.filter((o) => o === '-32007')).toHaveLength(FLOOD - limit);
    expect(await flooder.exited).toBe(0);
    // Nothing of the junk is stored, and no junk signer's nonce moved.
    const statuses = await client.getSignatureStatuses({ signatures: done.signatures as string[] });
    expect(statuses.every((s) => s === null)).toBe(true);
    for (const signer of done.signers as string[]) expect(await client.getNonce({ signer })).toBeNull();
  }, 60_000);
});
