/**
 * Sends a signed ledger transaction and waits (bounded) until it has landed, reading the landed
 * record: the only word on what happened. A ledger reply lost on the way (-32004: it may have
 * landed) is answered by reading the record, never by resending.
 */
import { RPC_ERRORS, type Transaction, type TransactionRecord } from '@nightjar/protocol/ledger-client';
import type { VenueSession } from '../session.js';
import { sleep } from './backoff.js';
import { ledgerRpcCode } from './typed-ledger.js';
import {
  NIGHTJAR_ERROR__LEDGER_REFUSED,
  NIGHTJAR_ERROR__TRANSACTION_PENDING,
  NightjarError,
} from '../errors/index.js';

/** Options of `landTransaction`. */
export interface LandTransactionOptions {
  /** Longest wait for the record, in ms (default 30,000). */
  waitMs?: number;
  /** Poll interval, in ms (default one slot). */
  pollMs?: number;
}

/**
 * The landed record of `tx`. Throws `LEDGER_REFUSED` when the ledger refused it (before
 * landing, or landed with an error) and `TRANSACTION_PENDING` when no record came in time.
 */
export async function landTransaction(
  client: VenueSession,
  tx: Transaction,
  options: LandTransactionOptions = {},
): Promise<TransactionRecord> {
  const name = tx.instruction.name;
  try {
    await client.ledger.sendTransaction({ transaction: tx });
  } catch (err) {
    // The client's ledger throws typed errors carrying the JSON-RPC code; a bare one throws RpcError.
    const code = ledgerRpcCode(err);
    if (code === undefined) throw err;
    if (code !== RPC_ERRORS.nodeTimeout)
      throw new NightjarError(
        NIGHTJAR_ERROR__LEDGER_REFUSED,
        { instruction: name, ledgerCode: String(code), landed: false, signature: tx.signature },
        { cause: err },
      );
  }
  const waitMs = options.waitMs ?? 30_000;
  const start = Date.now();
  for (;;) {
    const rec = await client.ledger.getTransaction({ signature: tx.signature });
    if (rec) {
      if (rec.err)
        throw new NightjarError(NIGHTJAR_ERROR__LEDGER_REFUSED, {
          instruction: name,
          ledgerCode: rec.err.code,
          landed: true,
          signature: tx.signature,
        });
      return rec;
    }
    const waited = Date.now() - start;
    if (waited >= waitMs)
      throw new NightjarError(NIGHTJAR_ERROR__TRANSACTION_PENDING, {
        instruction: name,
        signature: tx.signature,
        waitedMs: waited,
      });
    await sleep(Math.min(options.pollMs ?? client.slotMs, waitMs - waited));
  }
}
