/**
 * The settlement key's place in the ledger's signer set, at start. One engine: the set becomes
 * exactly its key (a key an earlier boot retired, a lost data directory or another platform, must
 * not stay able to sign for the vault). Several engines (a directory): the set is the union of the
 * venue's engines' keys, decided and registered inside the directory's scope (a PostgreSQL advisory
 * lock), so two engines booting together never drop each other's key.
 */
import type { LedgerClient } from '@nightjar/ledger';
import type { PipelineLog } from './pipeline-log.js';

/**
 * Runs `register` with the signer set the venue wants, `own` included, while no other engine of
 * the venue decides its own (the engines directory's lock).
 */
export type SignerSetScope = (
  own: string,
  register: (keys: readonly string[]) => Promise<void>,
) => Promise<void>;

export interface SignerRegistration {
  ledger: LedgerClient;
  own: string;
  /** Asks the ledger's admin to make the signer set exactly these keys (dev mode, tests). */
  registerTeeKeys?: (keys: string[]) => Promise<void>;
  scope?: SignerSetScope;
  log: PipelineLog;
}

export async function registerSettlementKey(r: SignerRegistration): Promise<void> {
  const apply = async (wanted: readonly string[]): Promise<void> => {
    // Read inside the scope: another engine may have just registered its set.
    const current = (await r.ledger.getVault({ commitment: 'processed' })).tee_keys;
    if (r.registerTeeKeys && !sameKeys(current, wanted)) {
      await r.registerTeeKeys([...wanted]);
      r.log.info({}, 'settlement key registered; settlement waits until the signer set is finalized');
    } else if (!current.includes(r.own)) {
      r.log.warn(
        { tee_key: r.own },
        'settlement key is not registered on the ledger: the operator must add it with set_tee_keys',
      );
    }
  };
  await (r.scope ? r.scope(r.own, apply) : apply([r.own]));
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}
