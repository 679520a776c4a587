/**
 * A client's attestation checks (a)–(d) against the engine a ready.json names, pinning its root
 * and compose hash, with `ledger` for the on-chain signer set: what the SDK does before it sends
 * anything.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { createTransport } from '@nightjar/sdk';
import type { RpcLedgerClient } from '@nightjar/ledger';

export async function expectVerified(
  ready: { base_url: string; platform_root: string; compose_hash: string; boot_session_id: string },
  ledger: RpcLedgerClient,
): Promise<void> {
  const transport = createTransport({
    url: ready.base_url,
    rootCaDer: readFileSync(ready.platform_root),
    composeHash: ready.compose_hash,
    ledger,
  });
  try {
    const verified = await transport.verify();
    expect(verified).toMatchObject({ bootSessionId: ready.boot_session_id, tcbStatus: 'UpToDate' });
    expect((await transport.request('/time')).status).toBe(200);
  } finally {
    transport.close();
  }
}
