/**
 * The venue of the SDK's end-to-end tests (`e2e-*.proofs.test.ts`), set up in one place: a real engine
 * (HTTPS, attestation, intake with REAL VALID_INPUT verification through the engine's batcher)
 * and the in-process dev ledger (manual clock). Every proof is made by the SDK's own path
 * (`NoteProver` worker threads). The ledger checks every `join_split`'s VALID_JOIN_SPLIT proof with
 * the real verification key (its other proof checks are the harness's stand-ins: the engine's
 * match proofs are stubbed), and the clients' ledger is the same ledger behind a wrapper that
 * checks each withdrawal's VALID_SPEND proof with the real key before forwarding it. The tests
 * reach into the venue only to move the chain's clock (and, in the reconnect test, to make the
 * engine drop every socket).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { spendChangeMemoHash } from '@nightjar/crypto';
import {
  COMMITMENT_LAG,
  createGroth16Verifier,
  type LedgerClient,
  type LedgerProofVerifier,
  type Transaction,
} from '@nightjar/ledger';
import { mintToFields, parseAddress } from '@nightjar/protocol';
import { afterAll, beforeAll } from 'vitest';
import {
  createClient,
  createStream,
  createWallet,
  type Client,
  type CreateStreamParameters,
  type StreamClient,
  type StreamClientEvent,
  type Wallet,
} from '../src/index.js';
import { pins, startTestVenue, type TestVenue } from './helpers.js';

export const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };
export const SYMBOL = 'SOL-USDC';

export type Credentials = { api_key: string; api_secret: string; passphrase: string };

/** A trader: a wallet file, a client, its stream and every order, fill and resync it heard. */
export interface Party {
  wallet: Wallet;
  client: Client;
  stream: StreamClient;
  events: StreamClientEvent[];
  credentials: Credentials;
}

/**
 * The venue's ledger, recording in `withdrawals` whether each withdrawal's proof verified, and in
 * `sent` every transaction the clients sent.
 */
function checkingLedger(
  ledger: LedgerClient,
  verifier: LedgerProofVerifier,
  withdrawals: boolean[],
  sent: Transaction[],
) {
  return new Proxy(ledger, {
    get(target, prop) {
      if (prop === 'sendTransaction')
        return async (params: { transaction: Transaction }) => {
          sent.push(params.transaction);
          const { name, args } = params.transaction.instruction;
          if (name === 'withdraw') {
            const a = args as Record<string, string> & {
              change?: { tree_id: number; commitment: string; memo: string };
            };
            const mint = mintToFields(parseAddress(a.mint)!);
            const recipient = mintToFields(parseAddress(a.recipient)!);
            const inputs = [
              BigInt('0x' + a.merkle_root),
              BigInt('0x' + a.nullifier),
              mint.mintLo,
              mint.mintHi,
              BigInt(a.amount!),
              recipient.mintHi,
              recipient.mintLo,
              a.change ? BigInt('0x' + a.change.commitment) : 0n,
              spendChangeMemoHash(
                a.change && { treeId: a.change.tree_id, memo: Buffer.from(a.change.memo, 'hex') },
              ),
            ];
            withdrawals.push(await verifier.verify('valid_spend_v2', Buffer.from(a.proof!, 'hex'), inputs));
          }
          return target.sendTransaction(params);
        };
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Starts the venue, a shared prover and a state directory; `close` stops and removes them. */
export async function startE2eVenue() {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-sdk-e2e-'));
  const prover = new NoteProver({ workers: 2, singleThread: true });
  const verifier = await createGroth16Verifier({
    valid_input_v2: await loadVerificationKey('valid_input_v2'),
    valid_spend_v2: await loadVerificationKey('valid_spend_v2'),
    valid_join_split_v2: await loadVerificationKey('valid_join_split_v2'),
  });
  /** The ledger's verdict on each join-split proof it checked. */
  const joinSplitVerdicts: boolean[] = [];
  const ledgerVerifier: LedgerProofVerifier = {
    async verify(circuit, proof, publicInputs) {
      if (circuit !== 'valid_join_split_v2') return proof[0] !== 0xdd; // the harness's stand-in
      const ok = await verifier.verify(circuit, proof, publicInputs);
      joinSplitVerdicts.push(ok);
      return ok;
    },
  };
  const v: TestVenue = await startTestVenue({
    settle: true,
    verifyInputProof: undefined,
    validInputKey: await loadVerificationKey('valid_input_v2'),
    verifierWorkers: 1,
    ledgerVerifier,
  });
  /** Every withdrawal the clients sent, and whether its VALID_SPEND proof verified. */
  const withdrawals: boolean[] = [];
  /** Every transaction the clients sent to the ledger. */
  const sent: Transaction[] = [];

  const connect = (wallet: Wallet, credentials: Credentials, stateDir: string): Promise<Client> => {
    const p = pins(v);
    return createClient({
      baseUrl: v.engine.url,
      pinnedRoot: p.rootCaDer,
      composeHash: p.composeHash,
      ledger: checkingLedger(v.ledger, verifier, withdrawals, sent),
      credentials,
      wallet,
      stateDir,
      prover,
    });
  };

  /** A new account with a wallet file, a client and a stream of orders and fills. */
  const party = async (name: string, streamOptions: CreateStreamParameters = {}): Promise<Party> => {
    const { credentials } = await v.newAccount();
    const wallet = createWallet({
      path: join(dir, `${name}.wallet`),
      password: `pw-${name}`,
      scrypt: FAST_SCRYPT,
    });
    const client = await connect(wallet, credentials, join(dir, name));
    const stream = await createStream(client, { channels: ['orders', 'fills'], ...streamOptions });
    const events: StreamClientEvent[] = [];
    stream.on('order', (e) => events.push(e));
    stream.on('fill', (e) => events.push(e));
    stream.on('resync', (e) => events.push(e));
    return { wallet, client, stream, events, credentials };
  };

  /** Gives `wallet`'s funding account `amount` of `mint` on the ledger (to deposit). */
  const airdrop = (wallet: Wallet, mint: string, amount: bigint | string) =>
    v.ledger.requestAirdrop({ owner: wallet.keys.funding.address, mint, amount: amount.toString() });

  /** Lets the chain finalize what landed and the engine's mirror apply it. */
  const finalize = async (): Promise<void> => {
    await v.advance(COMMITMENT_LAG.finalized + 1);
    await v.engine.context.trees.checkAgainstChain();
  };

  const settleUntil = async (condition: () => boolean, what: string, maxMs = 20_000): Promise<void> => {
    const deadline = performance.now() + maxMs;
    while (!condition()) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await v.advance(1);
      await new Promise((r) => setTimeout(r, 15));
    }
  };

  const close = async (): Promise<void> => {
    await prover.close();
    await v.close();
    await verifier.close();
    rmSync(dir, { recursive: true, force: true });
  };

  return {
    v,
    dir,
    withdrawals,
    joinSplitVerdicts,
    sent,
    connect,
    party,
    airdrop,
    finalize,
    settleUntil,
    close,
  };
}

export type E2eVenue = Awaited<ReturnType<typeof startE2eVenue>>;

/** Starts the venue before a test file's tests and stops it after; the function returns it. */
export function useE2eVenue(): () => E2eVenue {
  let e: E2eVenue | undefined;
  beforeAll(async () => {
    e = await startE2eVenue();
  }, 60_000);
  afterAll(async () => {
    await e?.close();
  });
  return () => e!;
}

/** The order event kinds `p` heard for `orderId`, in order. */
export const kinds = (p: Party, orderId: string) =>
  p.events.flatMap((e) => (e.type === 'order' && e.event.order_id === orderId ? [e.event.kind] : []));

/** How many fills of `orderId` `p`'s wallet stored. */
export const storedFills = (p: Party, orderId: string) =>
  p.events.filter((e) => e.type === 'fill' && e.event.order_id === orderId && e.stored).length;

/** The wallet's unspent notes, comparable across wallets. */
export const unspent = (w: Wallet) =>
  w
    .unspentNotes()
    .map((n) => `${n.mint}:${n.amount}:${n.commitment}`)
    .sort();
