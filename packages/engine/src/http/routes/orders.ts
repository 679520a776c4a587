/** Order management over REST: the same intake the stream's order ops use. */
import type { OrderStatusResponse } from '@nightjar/protocol';
import { principalOf } from './accounts.js';
import type { EngineContext } from '../context.js';
import { orderStatusBody } from '../../orders/engine-order.js';
import type { RouteHandlers } from '../register-routes.js';

export function orderHandlers(ctx: EngineContext) {
  return {
    placeOrder: async (req) => ctx.intake.place(principalOf(req), req.body),
    orderStatus: async (req): Promise<OrderStatusResponse> =>
      orderStatusBody(ctx.intake.lookup(principalOf(req), req.params.order_id)),
    cancelOrder: async (req) => ctx.intake.cancel(principalOf(req), req.params.order_id, req.body),
    modifyOrder: async (req) => ctx.intake.modify(principalOf(req), req.params.order_id, req.body),
    accountOrders: async (req): Promise<OrderStatusResponse[]> => {
      const caller = principalOf(req);
      const orders: OrderStatusResponse[] = [];
      for (const o of ctx.registry.liveOrders())
        if (o.accountId === caller.accountId) orders.push(orderStatusBody(o));
      return orders;
    },
  } satisfies Partial<RouteHandlers>;
}
