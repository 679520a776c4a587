import { describe, expect, it } from 'vitest';
import { AttestationService } from './service.js';
import type { AttestationPlatform } from './platform.js';

const platform: AttestationPlatform = {
  kind: 'simulated',
  appId: 'aa',
  instanceId: 'bb',
  composeHash: 'cc'.repeat(32),
  quote: async () => ({ quote: new Uint8Array(4), eventLog: [] }),
  deriveKeySeed: async () => new Uint8Array(32),
};

describe('attestation service', () => {
  it('reads the finalized signer set at each transport attestation, so the manifest never lags a change', async () => {
    // The chain view's cached value moves only when refreshed, as the 2 s poll would do it.
    let cached = '11'.repeat(32);
    let onChain = cached;
    const service = new AttestationService({
      platform,
      bootSessionId: '22'.repeat(32),
      tlsSpkiSha256: '33'.repeat(32),
      signerSetSha256: () => cached,
      refreshSignerSet: async () => {
        cached = onChain;
      },
    });
    expect((await service.transportAttestation(new Uint8Array(32))).manifest.signer_set_sha256).toBe(onChain);
    onChain = '44'.repeat(32);
    expect((await service.transportAttestation(new Uint8Array(32))).manifest.signer_set_sha256).toBe(onChain);
  });
});
