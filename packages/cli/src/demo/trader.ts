/**
 * A simulated trader built on the SDK only: its own account and in-memory wallet, funded from the
 * dev faucet. `nightjar start --demo-traders N` quotes ladders with it (`quote-round.ts`);
 * `nightjar bench` places single orders (`quote`).
 */
import { join } from 'node:path';
import {
  createClient,
  createStream,
  createWallet,
  deposit,
  INSUFFICIENT_NOTES_CODES,
  isNightjarError,
  parseUnits,
  placeOrder,
  syncWallet,
  type Client,
  type Credentials,
  type PlaceOrderReturnType,
  type Prover,
  type StreamClient,
  waitForInclusion,
} from '@nightjar/sdk';
import type { Instrument } from '@nightjar/protocol';
import type { Paths } from '../config.js';
import { readReady } from '../config.js';
import { venueOptions } from '../connect.js';
import { priceLimit } from './quote-plan.js';

export const SYMBOL = 'SOL-USDC';

/** Creates `n` trading accounts with the dev admin of ready.json. */
export async function createAccounts(paths: Paths, n: number, label: string): Promise<Credentials[]> {
  const admin = await openClient(paths, undefined);
  try {
    const out: Credentials[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        await admin.request<Credentials>('/admin/accounts', {
          method: 'POST',
          body: { label: `${label}-${i}` },
        }),
      );
    return out;
  } finally {
    await admin.close();
  }
}

async function openClient(
  paths: Paths,
  creds: Credentials | undefined,
  prover?: Prover,
  name?: string,
): Promise<Client> {
  const ready = readReady(paths);
  const credentials = creds ?? ready.admin;
  if (!credentials) throw new Error('ready.json has no dev admin: demo traders need a dev venue');
  return createClient({
    ...venueOptions(ready),
    credentials,
    ...(creds ? { wallet: createWallet() } : {}),
    ...(prover ? { prover } : {}),
    ...(name ? { stateDir: join(paths.dataDir, 'demo-traders', name) } : {}),
  });
}

/** Waits until every commitment is in the engine's tree. */
async function waitIncluded(client: Client, commitments: string[]): Promise<void> {
  for (const commitment of commitments) await waitForInclusion(client, { commitment, intervalMs: 300 });
}

export class Trader {
  stream: StreamClient | undefined;
  private constructor(
    readonly name: string,
    readonly client: Client,
    readonly market: Instrument,
  ) {}

  static async open(paths: Paths, name: string, creds: Credentials, prover: Prover): Promise<Trader> {
    const client = await openClient(paths, creds, prover, name);
    return new Trader(name, client, await client.instrument(SYMBOL));
  }

  /** Faucet, then `notes` deposits of each side (quote notes of `quoteEach`, base notes of `baseEach`). */
  async fund(notes: number, quoteEach: string, baseEach: string): Promise<void> {
    const { client, market } = this;
    const owner = client.wallet.keys.funding.address;
    await client.ledger.requestAirdrop({ owner, mint: market.quote_mint, amount: (10n ** 15n).toString() });
    await client.ledger.requestAirdrop({ owner, mint: market.base_mint, amount: (10n ** 15n).toString() });
    const made: string[] = [];
    for (let i = 0; i < notes; i++) {
      made.push(
        (await deposit(client, { mint: market.quote_mint, amount: quoteEach, wait: 'landed' })).note
          .commitment,
      );
      made.push(
        (await deposit(client, { mint: market.base_mint, amount: baseEach, wait: 'landed' })).note.commitment,
      );
    }
    await waitIncluded(client, made);
  }

  /** More of `mint` from the dev faucet, deposited as one note (usable once final, ~13 s); its amount. */
  async refill(mint: string, amount: string): Promise<bigint> {
    const { client, market } = this;
    const decimals = mint === market.base_mint ? market.base_decimals : market.quote_decimals;
    const owner = client.wallet.keys.funding.address;
    await client.ledger.requestAirdrop({ owner, mint, amount: parseUnits(amount, decimals).toString() });
    return (await deposit(client, { mint, amount, wait: 'landed' })).note.amount;
  }

  /** Subscribes to its orders and fills (fill memos are verified into the wallet). */
  async listen(
    onEvent: (kind: string, orderId: string, timeMs: number, reason?: string) => void,
  ): Promise<void> {
    this.stream = await createStream(this.client, { channels: ['orders', 'fills'] });
    this.stream.on('order', ({ event }) =>
      onEvent(event.kind, event.order_id, event.server_time_ms, event.reason),
    );
  }

  /** A price (decimal) rounded to the market's tick, as a `price_limit`. */
  priceLimit(price: number): bigint {
    return priceLimit(price, this.market);
  }

  /** Places one limit order; undefined when the wallet has no free note for it. */
  async quote(
    side: 'bid' | 'ask',
    price: number,
    amount: string,
    expirySeconds: number,
  ): Promise<PlaceOrderReturnType | undefined> {
    try {
      // Read note states first: a note spent by a settled fill still looks free to the wallet
      // until the ledger says otherwise, and an order backed by it fails settlement (note_spent).
      await syncWallet(this.client, { refreshOrders: true });
      return await placeOrder(this.client, {
        symbol: SYMBOL,
        side,
        amount,
        price: this.priceLimit(price),
        expiry: { seconds: expirySeconds },
      });
    } catch (err) {
      // No free note, or the chosen one (a fresh settlement output) is not in the engine's tree yet.
      if (isNightjarError(err, [...INSUFFICIENT_NOTES_CODES, 1301])) {
        await syncWallet(this.client, { refreshOrders: true }).catch(() => undefined);
        return undefined;
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.stream?.close().catch(() => undefined);
    await this.client.close();
  }
}

/** The moving reference price: a slow wave around 150 with a little noise. */
export function referencePrice(elapsedMs: number): number {
  return 150 + 2 * Math.sin(elapsedMs / 20_000) + (Math.random() - 0.5) * 0.2;
}
