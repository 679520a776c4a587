/**
 * The trader's side of the app, on the SDK: markets, balances, transfers (deposits with the dev
 * faucet, withdrawals), the order ticket, and the fills with their settlement, in human units.
 * Orders and fills are views of the wallet (its tracked orders, with the ticket the venue never
 * echoes, and its fills); this class wires the parts and turns the stream's news into frames.
 */
import { type Client, type OrderEvent, type StreamClientEvent, type Wallet } from '@nightjar/sdk';
import type { AppEvent } from '../api-types.js';
import type { AppState } from '../state.js';
import type { VenueSession } from '../venue.js';
import { Balances } from './balances.js';
import { TradingContext } from './context.js';
import { Fills } from './fills.js';
import { Markets } from './markets.js';
import { migrateFills, migrateOrders } from './migrate-memory.js';
import { Orders } from './orders.js';
import { proofProgress } from './progress.js';
import { Transfers } from './transfers.js';

/** The trader's parts, which the route handlers call; the stream's news comes in through `onStream`. */
export class Trader {
  readonly markets: Markets;
  readonly balances: Balances;
  readonly transfers: Transfers;
  readonly orders: Orders;
  readonly fills: Fills;

  constructor(
    venue: VenueSession,
    wallet: Wallet,
    state: AppState,
    private readonly emit: (e: AppEvent) => void,
  ) {
    // An app data directory from before the wallet kept the orders' tickets and the fills.
    migrateOrders(state, wallet);
    this.markets = new Markets((instruments) => migrateFills(state, wallet, instruments));
    this.balances = new Balances(venue, wallet, this.markets, (balances) =>
      emit({ type: 'balances', balances }),
    );
    const ctx = new TradingContext(venue, wallet, this.markets, emit, () => this.balances.soon());
    this.transfers = new Transfers(ctx, this.balances);
    this.orders = new Orders(ctx);
    this.fills = new Fills(ctx);
    // Every fill memo the wallet stores (from the stream or a sync) is a fill with its amounts.
    wallet.on('fill', (f) => this.fills.onWalletFill(f));
  }

  /** A new client of the venue: its proofs tell the progress of the action they belong to. */
  attach(client: Client): void {
    client.onProof(proofProgress);
    this.markets.reset();
  }

  /** What the stream tells, applied to the views. */
  onStream(e: StreamClientEvent): void {
    if (e.type === 'order') this.onOrderEvent(e.event);
    else if (e.type === 'fill' || e.type === 'resync') {
      // Views of every order after a resync (its order events came with `source: 'resync'`).
      this.balances.soon();
    }
  }

  /** An order event: the order's new state, and for a match its fill's settlement. */
  private onOrderEvent(event: OrderEvent): void {
    const view = this.orders.view(event.order_id);
    if (!view) return;
    this.emit({ type: 'order', order: view });
    if (event.match_id !== undefined) this.fills.onMatchEvent({ ...event, match_id: event.match_id });
    if (view.terminal || event.kind === 'partially_filled') this.balances.soon();
  }

  close(): void {
    this.balances.close();
  }
}
