/**
 * One round of a demo trader: read its wallet, merge dust, plan (`quote-plan.ts`), refill a side
 * that has run dry from the faucet, and place the ladder with `placeOrders` (which splits or merges
 * notes for the orders that lack one). Says what it did through `onEvent`: a merge, refill or order
 * that fails is an event, not an error, and the round goes on.
 */
import { mergeCandidates, mergeNotes, placeOrders, syncWallet } from '@nightjar/sdk';
import { sideHoldings } from './holdings.js';
import {
  notesToMerge,
  planRound,
  QUOTING,
  smallestRequired,
  type PlannedOrder,
  type Side,
} from './quote-plan.js';
import { SYMBOL, type Trader } from './trader.js';

/** What a round did; amounts in atomic units (base for orders, the side's collateral otherwise). */
export type RoundEvent =
  | { event: 'merge'; side: Side; notes: number; amount: bigint }
  | { event: 'refill'; side: Side; amount: bigint }
  /** A merge or refill that failed: the round goes on without it, the next one tries again. */
  | { event: 'merge_failed'; side: Side; error: string }
  | { event: 'refill_failed'; side: Side; error: string }
  | { event: 'placed'; side: Side; amount: bigint; price: bigint; orderId: string; crossing?: true }
  | { event: 'failed'; side: Side; amount: bigint; price: bigint; error: string };

export interface RoundOptions {
  /** Reference price, quote per base. */
  mid: number;
  /**
   * The side of a crossing order to place this round (see `RoundInput.crossing`), unless
   * `crossingOrderId`, the trader's last one, is still live.
   */
  crossing?: Side;
  crossingOrderId?: string;
  /** Orders this round at most, and their lifetime (see `proof-pace.ts`). */
  levels?: number;
  expirySeconds?: number;
  /** What a refill deposits, in human units: quote for the bid side, base for the ask side. */
  refill: { quote: string; base: string };
  onEvent: (e: RoundEvent) => void;
  random?: () => number;
}

const SIDES = ['bid', 'ask'] as const;

/** Merges each side's dust (see `notesToMerge`); a failed merge is an event, not an error. */
async function mergeDust(trader: Trader, mid: number, onEvent: RoundOptions['onEvent']): Promise<void> {
  const { client, market } = trader;
  for (const side of SIDES) {
    const mint = side === 'bid' ? market.quote_mint : market.base_mint;
    const merge = notesToMerge(
      mergeCandidates(client, { mint }),
      smallestRequired(side, market, mid),
      client.wallet.freeNotes(mint).length,
    );
    if (merge.length < 2) continue;
    try {
      // Not waiting for the merged note to be usable: a later round (or this one's orders) uses it.
      const r = await mergeNotes(client, { mint, commitments: merge, waitUsable: false });
      onEvent({ event: 'merge', side, notes: r.spent.length, amount: r.note.amount });
    } catch (err) {
      onEvent({ event: 'merge_failed', side, error: (err as Error).message });
    }
  }
}

/** Runs one round for `trader` (see the module comment). */
export async function quoteRound(trader: Trader, options: RoundOptions): Promise<void> {
  const { client, market } = trader;
  const wallet = client.wallet;
  const { mid, onEvent } = options;
  const mintOf = (side: Side) => (side === 'bid' ? market.quote_mint : market.base_mint);

  // Read note states first: a note spent by a settled fill still looks free to the wallet until
  // the ledger says otherwise, and an order backed by it would fail settlement (note_spent).
  await syncWallet(client, { refreshOrders: true });

  await mergeDust(trader, mid, onEvent);

  const held = {
    bid: sideHoldings(wallet, mintOf('bid'), 'bid'),
    ask: sideHoldings(wallet, mintOf('ask'), 'ask'),
  };
  const last = options.crossingOrderId ? wallet.orders.get(options.crossingOrderId) : undefined;
  const crossing = last && wallet.isLive(last) ? undefined : options.crossing;
  const plan = planRound({
    market,
    mid,
    bid: held.bid,
    ask: held.ask,
    liveOrders: [...wallet.orders.values()].filter((o) => wallet.isLive(o)).length,
    ...(crossing ? { crossing } : {}),
    ...(options.levels ? { levels: options.levels } : {}),
    random: options.random ?? Math.random,
  });

  // A side with a fill's outputs still to come is not short: its value is on its way back.
  for (const side of plan.refill.filter((s) => !held[s].awaitingMemo)) {
    const amount = side === 'bid' ? options.refill.quote : options.refill.base;
    try {
      onEvent({ event: 'refill', side, amount: await trader.refill(mintOf(side), amount) });
    } catch (err) {
      onEvent({ event: 'refill_failed', side, error: (err as Error).message });
    }
  }
  // An order on a named note (the crossing one) goes in a call of its own: placeOrders proves
  // nothing until the splits it makes are usable (~13 s), and the crossing fill should not wait.
  const place = async (orders: PlannedOrder[]) => {
    if (orders.length === 0) return;
    const { results } = await placeOrders(client, {
      orders: orders.map((o) => ({
        symbol: SYMBOL,
        side: o.side,
        amount: o.amount,
        price: o.price,
        expiry: { seconds: options.expirySeconds ?? QUOTING.expirySeconds },
        ...(o.note ? { note: o.note } : {}),
      })),
    });
    results.forEach((r, i) => {
      const { side, amount, price, crossing } = orders[i]!;
      if (r.status === 'success')
        onEvent({
          event: 'placed',
          side,
          amount,
          price,
          orderId: r.result.orderId,
          ...(crossing ? { crossing } : {}),
        });
      else onEvent({ event: 'failed', side, amount, price, error: r.error.message });
    });
  };
  await Promise.all([place(plan.orders.filter((o) => o.note)), place(plan.orders.filter((o) => !o.note))]);
}
