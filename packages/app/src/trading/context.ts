/** What the trader's parts share: the venue session, the wallet, the markets and the app's frames. */
import type { Wallet } from '@nightjar/sdk';
import type { AppEvent } from '../api-types.js';
import type { VenueSession } from '../venue.js';
import type { Markets } from './markets.js';
import { progressFrames, withProgress, type Progress } from './progress.js';

export class TradingContext {
  constructor(
    readonly venue: VenueSession,
    readonly wallet: Wallet,
    readonly markets: Markets,
    readonly emit: (e: AppEvent) => void,
    /** Tells the events socket the balances soon (one frame for a burst of changes). */
    readonly balancesSoon: () => void,
  ) {}

  progress(action: string, ref: string | undefined): Progress {
    return progressFrames(this.emit, action, ref);
  }

  /** Runs an action with progress frames; its failure is a `failed` stage and the venue hears of it. */
  tracked<T>(progress: Progress, work: () => Promise<T>): Promise<T> {
    return withProgress(progress, (err) => this.venue.noteFailure(err), work);
  }
}
