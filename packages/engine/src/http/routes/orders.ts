/** Order management over REST: the same intake the stream's order ops use. */
import type { FastifyInstance } from 'fastify';
import { RATE_LIMIT, type OrderStatusResponse } from '@nightjar/protocol';
import { principalOf } from '../../accounts/routes.js';
import type { EngineContext } from '../../context.js';
import { orderStatusBody } from '../../orders/engine-order.js';

type IdParams = { Params: { order_id: string } };

export async function orderRoutes(app: FastifyInstance, { ctx }: { ctx: EngineContext }): Promise<void> {
  const auth = { preHandler: ctx.requireAccount };
  app.post('/orders', auth, async (req, reply) => {
    const result = await ctx.intake.place(principalOf(req), req.body);
    return reply.status(202).send(result);
  });

  app.get<IdParams>('/orders/:order_id', auth, async (req): Promise<OrderStatusResponse> => {
    const caller = principalOf(req);
    ctx.intake.charge(caller, RATE_LIMIT.cost.read);
    return orderStatusBody(ctx.intake.lookup(caller, req.params.order_id));
  });

  app.delete<IdParams>('/orders/:order_id', auth, async (req) =>
    ctx.intake.cancel(principalOf(req), req.params.order_id, req.body),
  );

  app.put<IdParams>('/orders/:order_id', auth, async (req, reply) => {
    const result = await ctx.intake.modify(principalOf(req), req.params.order_id, req.body);
    return reply.status(202).send(result);
  });

  app.get('/account/orders', auth, async (req): Promise<{ orders: OrderStatusResponse[] }> => {
    const caller = principalOf(req);
    ctx.intake.charge(caller, RATE_LIMIT.cost.read);
    const orders: OrderStatusResponse[] = [];
    for (const o of ctx.registry.liveOrders())
      if (o.accountId === caller.accountId) orders.push(orderStatusBody(o));
    return { orders };
  });
}
