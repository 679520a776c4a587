/** Public market metadata: every market of the venue, each with the base URL of its engine. */
import { VenueError, type Instrument } from '@nightjar/protocol';
import type { EngineContext } from '../context.js';
import type { RouteHandlers } from '../register-routes.js';

export function instrumentHandlers(ctx: EngineContext) {
  return {
    instruments: (): Promise<Instrument[]> => ctx.listedInstruments(),
    instrument: async (req): Promise<Instrument> => {
      const instrument = (await ctx.listedInstruments()).find((i) => i.symbol === req.params.symbol);
      if (!instrument) throw new VenueError(1301, 'no such instrument');
      return instrument;
    },
  } satisfies Partial<RouteHandlers>;
}
