/** Public market metadata. */
import { VenueError, type Instrument } from '@nightjar/protocol';
import type { EngineContext } from '../context.js';
import type { RouteHandlers } from '../register-routes.js';

export function instrumentHandlers(ctx: EngineContext) {
  return {
    instruments: async (): Promise<Instrument[]> => ctx.markets.list(),
    instrument: async (req): Promise<Instrument> => {
      const instrument = ctx.markets.get(req.params.symbol);
      if (!instrument) throw new VenueError(1301, 'no such instrument');
      return instrument;
    },
  } satisfies Partial<RouteHandlers>;
}
