/** The wallet's balances per asset (usable, arriving, locked, settling) beside its funding account. */
import {
  formatUnits,
  syncWallet,
  orderReadyNotes,
  type Client,
  type Wallet,
  type WalletNote,
} from '@nightjar/sdk';
import type { BalanceView } from '../api-types.js';
import type { VenueSession } from '../venue.js';
import type { Markets } from './markets.js';
import { usableBalance } from './usable-balance.js';

/** How soon balances with value arriving are told again: nothing else says when the engine's tree takes a note. */
export const ARRIVING_RECHECK_MS = 2_000;

export class Balances {
  private syncing: Promise<unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private recheck: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly venue: VenueSession,
    private readonly wallet: Wallet,
    private readonly markets: Markets,
    private readonly tell: (balances: BalanceView[]) => void,
  ) {}

  /** Syncs the wallet from the ledger (one sync at a time; callers meanwhile share it). */
  sync(client: Client): Promise<unknown> {
    this.syncing ??= syncWallet(client, { refreshOrders: true }).finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  async views(options: { sync?: boolean } = {}): Promise<BalanceView[]> {
    const client = this.venue.require();
    if (options.sync ?? true) await this.sync(client);
    const assets = await this.markets.assets(client);
    const canBack = await this.canBack(client);
    const owner = this.wallet.keys.funding.address;
    const mine = this.wallet.balances();
    const split = assets.map((a) => usableBalance(this.wallet, a.mint, canBack, mine));
    if (split.some((b) => b.arriving > 0n)) this.recheckSoon();
    return Promise.all(
      assets.map(async (a, i) => {
        const b = split[i]!;
        const funding = BigInt(await client.ledger.getBalance({ owner, mint: a.mint }));
        const f = (v: bigint) => formatUnits(v, a.decimals);
        return {
          asset: a.symbol,
          mint: a.mint,
          decimals: a.decimals,
          usable: f(b.usable),
          arriving: f(b.arriving),
          locked: f(b.locked),
          pending_settlement: f(b.pendingSettlement),
          funding: f(funding),
        };
      }),
    );
  }

  /** Whether a note can back an order now: the engine's tree has it (as `chooseNote` asks) and no hold keeps it. */
  private async canBack(client: Client): Promise<(n: WalletNote) => boolean> {
    return (await orderReadyNotes(client, this.wallet.unspentNotes())).usable;
  }

  /** Tells the balances soon (one frame for a burst of changes). */
  soon(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.views({ sync: false }).then(this.tell, () => undefined);
    }, 250);
    this.timer.unref();
  }

  /** Tells the balances again in a while (arriving value turns usable with no event of its own). */
  private recheckSoon(): void {
    if (this.recheck || this.closed) return;
    this.recheck = setTimeout(() => {
      this.recheck = undefined;
      this.soon();
    }, ARRIVING_RECHECK_MS);
    this.recheck.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.recheck) clearTimeout(this.recheck);
  }
}
