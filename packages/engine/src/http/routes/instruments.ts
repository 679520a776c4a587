/** Public market metadata. */
import type { FastifyInstance } from 'fastify';
import { VenueError, type Instrument } from '@nightjar/protocol';
import type { EngineContext } from '../../context.js';

export async function instrumentRoutes(app: FastifyInstance, { ctx }: { ctx: EngineContext }): Promise<void> {
  app.get('/instruments', async (): Promise<Instrument[]> => ctx.markets.list());
  app.get<{ Params: { symbol: string } }>('/instruments/:symbol', async (req): Promise<Instrument> => {
    const instrument = ctx.markets.get(req.params.symbol);
    if (!instrument) throw new VenueError(1301, 'no such instrument');
    return instrument;
  });
}
