/**
 * The app's memory from before the wallet kept it: `orders.json` (each order's ticket) and
 * `fills.json` (the fill views) beside the wallet. Each is read once into the wallet, saved, and
 * renamed `<name>.migrated` (kept, not deleted: what could not be moved stays readable there).
 * What the wallet already has wins: it was heard of since the upgrade, so it is the newer record.
 */
import {
  fillKey,
  parsePrice,
  parseUnits,
  type Instrument,
  type TrackedFill,
  type Wallet,
} from '@nightjar/sdk';
import type { FillView } from '../api-types.js';
import type { AppState } from '../state.js';
import { feeDecimals } from './views.js';

export const OLD_ORDERS = 'orders.json';
export const OLD_FILLS = 'fills.json';

/** An order as `orders.json` kept it. */
interface OldOrder {
  order_id: string;
  type: 'limit' | 'ioc' | 'fok';
  amount: string;
  price: string;
  created_at: number;
  expires_at?: number;
}

/**
 * Moves the tickets of `orders.json` into the wallet's tracked orders (one the wallet does not
 * track cannot be shown: the file keeps it). Needs nothing of the venue.
 */
export function migrateOrders(state: AppState, wallet: Wallet): void {
  const old = state.load<OldOrder[] | undefined>(OLD_ORDERS, undefined);
  if (!old) return;
  for (const o of old) {
    if (wallet.orders.get(o.order_id)?.ticket) continue;
    wallet.setTicket(o.order_id, {
      type: o.type,
      amount: o.amount,
      price: o.price,
      createdAt: o.created_at,
      ...(o.expires_at === undefined ? {} : { expiresAt: o.expires_at }),
    });
  }
  wallet.save();
  state.retire(OLD_ORDERS);
}

/** A fill view as `fills.json` kept it: before issue 32's one vocabulary (`market`, buy/sell). */
type OldFillView = Omit<FillView, 'symbol' | 'side' | 'side_label'> & {
  market: string;
  side: 'buy' | 'sell';
};

/** An old fill view as the wallet's record (human units back to atomic ones). */
function oldFill(f: OldFillView, inst: Instrument): TrackedFill {
  const s = f.settlement;
  const units = (v: string, decimals: number) => (v === '' ? undefined : parseUnits(v, decimals));
  const size = units(f.size, inst.base_decimals);
  const fee = units(f.fee, feeDecimals(inst, f.side === 'buy' ? 'bid' : 'ask'));
  const price = f.price === '' ? undefined : parsePrice(f.price, inst);
  return {
    orderId: f.order_id,
    matchId: f.fill_id.slice(f.order_id.length + 1),
    time: f.time,
    ...(size === undefined ? {} : { size }),
    ...(price === undefined ? {} : { price }),
    ...(fee === undefined ? {} : { fee }),
    settlement: {
      ...(s.batch_id === undefined ? {} : { batchId: s.batch_id }),
      stage: s.stage,
      outcome: s.outcome,
      ...(s.ledger_signature === undefined ? {} : { signature: s.ledger_signature }),
    },
  };
}

/**
 * Moves the fills of `fills.json` into the wallet (the amounts need the markets' decimals, so
 * this runs once the instruments are known). A fill of an order the wallet does not track, or
 * of a market the venue no longer lists, or with an unreadable amount, stays in the renamed file only.
 */
export function migrateFills(state: AppState, wallet: Wallet, instruments: readonly Instrument[]): void {
  const old = state.load<OldFillView[] | undefined>(OLD_FILLS, undefined);
  if (!old) return;
  for (const f of old) {
    const inst = instruments.find((i) => i.symbol === f.market);
    const key = fillKey(f.order_id, f.fill_id.slice(f.order_id.length + 1));
    if (!inst || !wallet.orders.has(f.order_id) || wallet.fills.has(key)) continue;
    try {
      wallet.fills.set(key, oldFill(f, inst));
    } catch {
      // An amount this market cannot read (hand-edited file): it stays in the renamed file.
    }
  }
  wallet.save();
  state.retire(OLD_FILLS);
}
