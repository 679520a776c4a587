/**
 * What the SIGKILL and restart tests need beside the engine child process (the test kit's
 * `startEngineProcess`): a data directory prepared with the engine's own settlement key and
 * journal, and a TestVenue view of the child over HTTPS.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMITMENT_LAG, runAsAdmin, type Ledger } from '@nightjar/ledger';
import { SettlementJournal } from '../../src/settlement/journal.js';
import { loadOrCreateTeeKey } from '../../src/settlement/tee-key.js';
import type { HttpsClient, TestVenue } from '@nightjar/testkit';
import type { EngineChild } from '@nightjar/testkit/process';

/**
 * A fresh data directory whose settlement key (and journal) exist before the first boot, with the
 * key added to the ledger's finalized signer set, so the child settles from its first slot.
 */
export async function preparedDataDir(ledger: Ledger, adminSeed: Uint8Array): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nightjar-crash-'));
  const key = loadOrCreateTeeKey(dataDir);
  new SettlementJournal(dataDir, false).close();
  const vault = await ledger.getVault();
  await runAsAdmin(ledger, adminSeed, [
    { name: 'set_tee_keys', args: { keys: [...vault.tee_keys.slice(-8), key.address] } },
  ]);
  await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
  return dataDir;
}

/** Enough of a TestVenue for the harness's Trader, over the child's HTTPS API. */
export async function clientVenue(ledger: Ledger, child: EngineChild, client: HttpsClient) {
  const state = { root: 0n, slot: 0 };
  const refresh = async () => {
    const [root, time] = await Promise.all([client.send('/tree/root?tree_id=0'), client.send('/time')]);
    state.root = BigInt('0x' + root.body.merkle_root);
    state.slot = Number(time.body.slot);
    return Number(root.body.leaf_count);
  };
  const fake = {
    ledger,
    advance: async (slots: number) => {
      await ledger.advanceSlots({ slots });
    },
    engine: {
      url: child.url,
      certificate: { certPem: child.cert },
      bootSessionId: child.bootSessionId,
      context: {
        chain: {
          get slot() {
            return state.slot;
          },
        },
        trees: {
          shard: () => ({ root: state.root }),
          // The child's mirror has every finalized leaf.
          checkAgainstChain: async () => {
            const want = (await ledger.getTreeRoot({ tree_id: 0, commitment: 'finalized' })).leaf_count;
            for (let i = 0; i < 400 && (await refresh()) < want; i++)
              await new Promise((r) => setTimeout(r, 10));
          },
        },
      },
    },
  };
  return { venue: fake as unknown as TestVenue, refresh };
}
