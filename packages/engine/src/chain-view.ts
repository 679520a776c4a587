/**
 * What the engine knows of the chain right now: the processed slot (from slot events, so reads of
 * it cost nothing), and the finalized TEE signer set. `poll()` (run every couple of seconds, and
 * by tests directly) asks the ledger for its slot and signer set: when that fails the ledger is
 * marked unavailable and new trading pauses (5001) until it answers again.
 */
import type { LedgerClient, LedgerEvent } from '@nightjar/ledger';

export class ChainView {
  slot = 0;
  teeKeys: string[] = [];
  signerSetSha256 = '';
  numTrees = 0;
  available = true;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly slotListeners = new Set<(slot: number) => void>();

  constructor(private readonly ledger: LedgerClient) {}

  async start(): Promise<void> {
    this.unsubscribe = this.ledger.subscribe((e: LedgerEvent) => {
      if (e.type !== 'slot' || e.slot <= this.slot) return;
      this.slot = e.slot;
      for (const l of this.slotListeners) l(e.slot);
    });
    this.slot = Math.max(this.slot, await this.ledger.getSlot());
    await this.refreshVault();
  }

  stop(): void {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  onSlot(listener: (slot: number) => void): () => void {
    this.slotListeners.add(listener);
    return () => this.slotListeners.delete(listener);
  }

  async refreshVault(): Promise<void> {
    await this.poll();
  }

  /** One health round trip to the ledger; never throws. */
  async poll(): Promise<void> {
    try {
      const [slot, vault] = await Promise.all([
        this.ledger.getSlot(),
        this.ledger.getVault({ commitment: 'finalized' }),
      ]);
      this.slot = Math.max(this.slot, slot);
      this.teeKeys = vault.tee_keys;
      this.signerSetSha256 = vault.signer_set_sha256;
      this.numTrees = vault.num_trees;
      this.available = true;
    } catch {
      this.available = false;
    }
  }

  /** Polls every `intervalMs` until stopped. */
  startPolling(intervalMs = 2000): void {
    this.timer ??= setInterval(() => void this.poll(), intervalMs);
    this.timer.unref?.();
  }
}
