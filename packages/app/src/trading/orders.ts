/**
 * The order ticket: preview, place (with progress frames), cancel and modify, and the order views
 * of the wallet's tracked orders. What the venue never echoes (type, amount and price as typed,
 * times) the wallet keeps as the order's ticket.
 */
import { cancelAll, cancelOrder, modifyOrder, orderTerms, placeOrder, type OrderTicket } from '@nightjar/sdk';
import type { CancelAllResult, ModifyRequest, OrderPreview, OrderRequest, OrderView } from '../api-types.js';
import { AppError, toAppError } from '../errors.js';
import type { TradingContext } from './context.js';
import { previewOrder, toParams } from './order-preview.js';
import { splitDetail } from './progress.js';
import { orderView } from './views.js';

function notTracked(orderId: string): AppError {
  return new AppError(
    404,
    'NOT_FOUND',
    `no order ${orderId} in this wallet`,
    'pick one of the orders this app placed',
    undefined,
    'GET /api/v1/orders lists them',
  );
}

export class Orders {
  constructor(private readonly ctx: TradingContext) {}

  /** The exact conversion and the venue's rules, without a note, a proof or a request. */
  async preview(req: OrderRequest): Promise<OrderPreview> {
    const client = this.ctx.venue.require();
    const inst = await this.ctx.markets.instrument(client, req.symbol);
    return previewOrder(client, this.ctx.wallet, inst, req);
  }

  async place(req: OrderRequest): Promise<OrderView> {
    const client = this.ctx.venue.require();
    await this.ctx.markets.instrument(client, req.symbol);
    const params = toParams(req);
    const progress = this.ctx.progress('order', req.client_ref);
    return this.ctx.tracked(progress, async () => {
      progress('checking');
      // The venue's order rules, before the 1–3 s of a note split and a proof.
      await orderTerms(client, params);
      progress('preparing_note', 'choosing a note that covers the order');
      const placed = await placeOrder(client, {
        ...params,
        onNoteProgress: (p) => progress('preparing_note', splitDetail(p)),
      });
      const now = Date.now();
      this.keepTicket(placed.orderId, {
        type: req.type,
        amount: req.amount,
        price: req.price,
        createdAt: now,
        // The SDK's default lifetime is 1,000 slots.
        expiresAt:
          now + (req.expiry_seconds === undefined ? 1000 * client.slotMs : req.expiry_seconds * 1000),
        ...(req.client_ref === undefined ? {} : { clientRef: req.client_ref }),
      });
      progress('accepted', placed.orderId);
      const view = this.view(placed.orderId)!;
      this.ctx.emit({ type: 'order', order: view });
      this.ctx.balancesSoon();
      return view;
    });
  }

  async cancel(orderId: string): Promise<OrderView> {
    const client = this.ctx.venue.require();
    if (!this.ctx.wallet.orders.has(orderId)) throw notTracked(orderId);
    try {
      await cancelOrder(client, { orderId });
    } catch (err) {
      this.ctx.venue.noteFailure(err);
      throw err;
    }
    const view = this.view(orderId)!;
    this.ctx.emit({ type: 'order', order: view });
    this.ctx.balancesSoon();
    return view;
  }

  /** Cancels every live order the venue lists for the account (one market's with `symbol`). */
  async cancelAll(symbol: string | undefined): Promise<CancelAllResult> {
    const client = this.ctx.venue.require();
    let result;
    try {
      result = await cancelAll(client, symbol === undefined ? {} : { symbol });
    } catch (err) {
      this.ctx.venue.noteFailure(err);
      throw err;
    }
    for (const id of result.cancelled) {
      const view = this.view(id);
      if (view) this.ctx.emit({ type: 'order', order: view });
    }
    if (result.cancelled.length > 0) this.ctx.balancesSoon();
    const failed = result.failed.map((f) => {
      const e = toAppError(f.error);
      return { order_id: f.orderId, code: e.code, message: e.message };
    });
    const unreachable = result.unreachable.map((u) => {
      const e = toAppError(u.error);
      return { engine: u.baseUrl, code: e.code, message: e.message };
    });
    return { cancelled: result.cancelled, failed, ...(unreachable.length > 0 ? { unreachable } : {}) };
  }

  /** Replaces an order this app placed (its ticket is the old one's, with the new amount and price). */
  async modify(orderId: string, req: ModifyRequest): Promise<OrderView> {
    const client = this.ctx.venue.require();
    const tracked = this.ctx.wallet.orders.get(orderId);
    const old = tracked?.ticket;
    if (!tracked || !old) throw notTracked(orderId);
    const amount = req.amount ?? old.amount;
    const price = req.price ?? old.price;
    const progress = this.ctx.progress('modify', orderId);
    return this.ctx.tracked(progress, async () => {
      const placed = await modifyOrder(client, {
        orderId,
        side: tracked.side,
        type: old.type,
        amount,
        price,
      });
      this.keepTicket(placed.orderId, { ...old, amount, price, createdAt: Date.now() });
      progress('accepted', placed.orderId);
      if (placed.orderId !== orderId) this.ctx.emit({ type: 'order', order: this.view(orderId)! });
      const view = this.view(placed.orderId)!;
      this.ctx.emit({ type: 'order', order: view });
      return view;
    });
  }

  private keepTicket(orderId: string, ticket: OrderTicket): void {
    if (this.ctx.wallet.setTicket(orderId, ticket)) this.ctx.wallet.save();
  }

  view(orderId: string): OrderView | undefined {
    const order = this.ctx.wallet.orders.get(orderId);
    return order && orderView(order, this.ctx.markets.known(order.symbol));
  }

  /** Every order the wallet tracks, newest first. */
  views(): OrderView[] {
    return [...this.ctx.wallet.orders.values()]
      .map((o) => orderView(o, this.ctx.markets.known(o.symbol)))
      .sort((a, b) => b.created_at - a.created_at);
  }
}
