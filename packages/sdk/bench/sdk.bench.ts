/**
 * SDK benchmarks (docs/benchmarks/sdk.md):
 *  1. createClient → a verified, logged-in session (transport attestation (a)–(d) + token);
 *  2. VALID_INPUT v2 proof time per order, and orders proved per second with the worker pool;
 *  3. recovering a wallet from its seed against a ledger of 100,000 memos (N_MEMOS), 10 of them ours.
 *
 *   npx tsx packages/sdk/bench/sdk.bench.ts          (BENCH=session,proofs,recovery to pick parts)
 */
import { availableParallelism } from 'node:os';
import { NoteProver } from '@nightjar/circuits';
import {
  encryptFillMemo,
  generateX25519KeyPair,
  outputInner,
  OutputRole,
  randomFieldElement,
} from '@nightjar/crypto';
import { bytesToHex, parseAddress } from '@nightjar/protocol';
import { mintAddress, type DepositRecord, type LedgerClient, type MemoRecord } from '@nightjar/ledger';
import { createClient, createWallet, syncWallet, type Client } from '../src/index.js';
import { pins, startTestVenue } from '../test/helpers.js';

const N_MEMOS = Number(process.env.N_MEMOS ?? 100_000);
const N_PROOFS = Number(process.env.N_PROOFS ?? 8);
const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;

async function sessionTime(): Promise<number[]> {
  const v = await startTestVenue();
  try {
    const { credentials } = await v.newAccount();
    const p = pins(v);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const c = await createClient({
        baseUrl: v.engine.url,
        pinnedRoot: p.rootCaDer,
        composeHash: p.composeHash,
        ledger: v.ledger,
        credentials,
      });
      times.push(ms(t0));
      await c.close();
    }
    return times;
  } finally {
    await v.close();
  }
}

async function proofTimes(): Promise<{
  single: number[];
  pool: { workers: number; perSecond: number; wallMs: number };
}> {
  const SOL = mintAddress('SOL');
  const siblings = Array.from({ length: 20 }, () => randomFieldElement());
  // Each proof backs its own order (VALID_INPUT v2 binds the note to the order's terms).
  let orderId = 0n;
  const req = () => ({
    mint: parseAddress(SOL)!,
    amount: 1_000n,
    spendingKey: randomFieldElement(),
    noteInnerHash: randomFieldElement(),
    path: { siblings, leafIndex: 5 },
    order: {
      marketLo: 1n,
      marketHi: 2n,
      side: 0 as const,
      amount: 1_000n,
      priceLimit: 150n,
      minFillSize: 1n,
      expirySlot: 1_000_000n,
      orderId: ++orderId,
    },
  });
  const one = new NoteProver();
  const single: number[] = [];
  try {
    await one.proveValidInputV2(req()); // warm-up (artifact load)
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      await one.proveValidInputV2(req());
      single.push(ms(t0));
    }
  } finally {
    await one.close();
  }
  const workers = availableParallelism();
  const pool = new NoteProver({ workers, singleThread: true });
  try {
    await Promise.all(Array.from({ length: workers }, () => pool.proveValidInputV2(req())));
    const t0 = performance.now();
    await Promise.all(Array.from({ length: N_PROOFS }, () => pool.proveValidInputV2(req())));
    const wallMs = ms(t0);
    return {
      single,
      pool: { workers, perSecond: Math.round((N_PROOFS / wallMs) * 1000 * 100) / 100, wallMs },
    };
  } finally {
    await pool.close();
  }
}

/**
 * A ledger of N memos (10 of them the wallet's fills, each of one of its 10 deposits, verified
 * against the leaves) served from memory.
 */
async function recoveryTime(): Promise<{ memos: number; ms: number; stored: number }> {
  const SOL = mintAddress('SOL');
  const USDC = mintAddress('USDC');
  const seed = new Uint8Array(32).fill(9);
  const owner = createWallet({ seed });
  const leaves: string[] = [];
  const deposits: DepositRecord[] = [];
  const ours = new Map<number, string>();
  const step = Math.floor(N_MEMOS / 10);
  for (let k = 0; k < 10; k++) {
    // The consumed note: the wallet's k-th deposit, which the recovery finds through getDeposits.
    const { note: parent } = owner.depositNote(k, USDC, 2_000n, 0);
    deposits.push({
      signature: '00'.repeat(64),
      slot: k,
      tree_id: 0,
      leaf_index: leaves.length,
      mint: USDC,
      amount: '2000',
      note_commitment: parent.commitment,
    });
    leaves.push(parent.commitment);
    // Settlement v2's memo: trade-out, change (zero here, still appended) and fee inners.
    const parentInner = BigInt('0x' + parent.inner);
    const trade = outputInner(parentInner, OutputRole.tradeOut);
    const change = outputInner(parentInner, OutputRole.change);
    const memo = encryptFillMemo(owner.keys.viewingPublicKey, {
      orderId: new Uint8Array(16).fill(k + 1),
      matchId: BigInt(k),
      tradeAmount: 1_000n + BigInt(k),
      changeAmount: 0n,
      feeAmount: 1n,
      outputInners: [trade, change, outputInner(parentInner, OutputRole.fee)],
    });
    ours.set(k * step, bytesToHex(memo));
    leaves.push(owner.noteFor(SOL, 1_000n + BigInt(k), trade, 0, 'trade').commitment);
    leaves.push(owner.noteFor(USDC, 0n, change, 0, 'change').commitment);
  }
  // Foreign memos: one sealed memo per distinct random key would take minutes to build, so a
  // handful of foreign ciphertexts repeat; each is still a full trial decryption for the wallet.
  const foreign = Array.from({ length: 64 }, (_, i) =>
    bytesToHex(
      encryptFillMemo(generateX25519KeyPair().publicKey, {
        orderId: new Uint8Array(16).fill(200),
        matchId: BigInt(i),
        tradeAmount: 5n,
        changeAmount: 0n,
        feeAmount: 0n,
        outputInners: [randomFieldElement()],
      }),
    ),
  );
  const memoAt = (i: number): MemoRecord => ({
    index: i,
    signature: '00'.repeat(64),
    match_idx: 0,
    party: 0,
    memo: ours.get(i) ?? foreign[i % foreign.length]!,
    kind: 'fill',
  });
  const ledger = {
    getVault: async () => ({ num_trees: 1 }),
    getTreeRoot: async () => ({ tree_id: 0, merkle_root: '', leaf_count: leaves.length, slot: 0 }),
    getLeaves: async ({ from, to }: { from: number; to: number }) => ({
      leaves: leaves.slice(from, to).map((value, i) => ({ leaf_index: from + i, value })),
    }),
    getMemos: async ({ from, to }: { from: number; to: number }) => ({
      memos: Array.from({ length: Math.max(0, Math.min(to, N_MEMOS) - from) }, (_, i) => memoAt(from + i)),
    }),
    // Nothing spent or locked: the recovery is the deposit search and the memo scan.
    getSpentNullifiers: async ({ from }: { from: number }) => ({ nullifiers: [], next: from }),
    getLiveLocks: async ({ from }: { from: number }) => ({ locks: [], next: from }),
    getDeposits: async ({ from = 0 }: { from?: number }) => ({ deposits: deposits.slice(from) }),
    getNonce: async () => null,
  } as unknown as LedgerClient;
  const recovered = createWallet({ seed });
  // Only what syncWallet uses of a client: the ledger, the wallet and the instrument list.
  const client = {
    ledger,
    wallet: recovered,
    hasWallet: true,
    request: async () => [
      {
        symbol: 'SOL-USDC',
        base_mint: SOL,
        quote_mint: USDC,
        base_decimals: 9n,
        quote_decimals: 6n,
        price_scale: 1n,
        tick_size: 1n,
        min_order_size: 1n,
        fee_bps: 10n,
        trading_enabled: true,
        market_id: SOL,
      },
    ],
  } as unknown as Client;
  const t0 = performance.now();
  const r = await syncWallet(client);
  return { memos: r.memosScanned, ms: ms(t0), stored: r.memosStored };
}

const parts = new Set((process.env.BENCH ?? 'session,proofs,recovery').split(','));
if (parts.has('session')) {
  const session = await sessionTime();
  console.log('createClient → verified, logged-in session (ms):', session);
}
if (parts.has('proofs')) {
  const proofs = await proofTimes();
  console.log('VALID_INPUT v2 proof, one multi-threaded worker (ms):', proofs.single);
  console.log('worker pool:', proofs.pool);
}
if (parts.has('recovery')) {
  const rec = await recoveryTime();
  console.log(`recovery: ${rec.memos} memos scanned, ${rec.stored} stored, ${rec.ms} ms`);
}
