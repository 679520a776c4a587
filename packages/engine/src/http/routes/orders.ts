/** Order management over REST: the same intake the stream's order ops use. */
import type { FastifyInstance } from 'fastify';
import type { OrderStatusResponse } from '@nightjar/protocol';
import { principalOf } from '../../accounts/routes.js';
import type { EngineContext } from '../../context.js';
import { orderStatusBody } from '../../orders/engine-order.js';
import type { OrderOperation } from '../../orders/intake.js';
import { accountDoor } from './front-doors.js';

type IdParams = { Params: { order_id: string } };

export async function orderRoutes(app: FastifyInstance, { ctx }: { ctx: EngineContext }): Promise<void> {
  // The front door runs in onRequest, before the body is even parsed: the token, then the
  // account's bucket. A request over the limit costs no parsing, signature or proof work.
  const frontDoor = (op: OrderOperation) => accountDoor(ctx, op);
  app.post('/orders', frontDoor('place'), async (req, reply) => {
    const result = await ctx.intake.place(principalOf(req), req.body);
    return reply.status(202).send(result);
  });

  app.get<IdParams>('/orders/:order_id', frontDoor('read'), async (req): Promise<OrderStatusResponse> =>
    orderStatusBody(ctx.intake.lookup(principalOf(req), req.params.order_id)),
  );

  app.delete<IdParams>('/orders/:order_id', frontDoor('cancel'), async (req) =>
    ctx.intake.cancel(principalOf(req), req.params.order_id, req.body),
  );

  app.put<IdParams>('/orders/:order_id', frontDoor('modify'), async (req, reply) => {
    const result = await ctx.intake.modify(principalOf(req), req.params.order_id, req.body);
    return reply.status(202).send(result);
  });

  app.get('/account/orders', frontDoor('read'), async (req): Promise<OrderStatusResponse[]> => {
    const caller = principalOf(req);
    const orders: OrderStatusResponse[] = [];
    for (const o of ctx.registry.liveOrders())
      if (o.accountId === caller.accountId) orders.push(orderStatusBody(o));
    return orders;
  });
}
