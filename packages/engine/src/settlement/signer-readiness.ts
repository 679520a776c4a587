/**
 * Settlement waits for its key to be in the ledger's finalized signer set (a fresh registration
 * takes a few slots): batches and recovery park on `whenReady`, which polls the chain view.
 */
import type { ChainView } from '../chain-view.js';

const POLL_MS = 200;

export class SignerReadiness {
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly chain: Pick<ChainView, 'teeKeys' | 'poll'>,
    private readonly address: string,
  ) {}

  /** The key is in the finalized signer set. */
  get finalized(): boolean {
    return this.chain.teeKeys.includes(this.address);
  }

  /** Resolves once the key is finalized, or at once when closed. */
  whenReady(): Promise<void> {
    if (this.finalized || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.timer ??= setInterval(() => {
        void this.chain.poll().then(() => {
          if (!this.finalized && !this.closed) return;
          clearInterval(this.timer);
          this.timer = undefined;
          this.wake();
        });
      }, POLL_MS);
      this.timer.unref?.();
    });
  }

  /** Stops polling and releases every waiter (the engine is closing). */
  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
