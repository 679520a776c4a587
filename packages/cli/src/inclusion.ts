/**
 * Waiting for a note to reach the engine's tree (finalized on the ledger): a fresh deposit or
 * settlement output is spendable only from then on.
 */
import { getInclusion, NotFoundError, type Client } from '@nightjar/sdk';

/** Polls until `commitment` is in the tree; false when `timeoutMs` (if given) passes first. */
export async function untilIncluded(
  client: Client,
  commitment: string,
  options: { intervalMs: number; timeoutMs?: number },
): Promise<boolean> {
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  for (;;) {
    try {
      await getInclusion(client, { commitment });
      return true;
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, options.intervalMs));
    }
  }
}
