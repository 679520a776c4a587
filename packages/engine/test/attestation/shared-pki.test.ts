import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimulatedPlatform } from '../../src/attestation/simulated-platform.js';

const HASH = 'ab'.repeat(32);

describe('a simulated PKI shared by the machines of one venue', () => {
  const root = mkdtempSync(join(tmpdir(), 'nightjar-pki-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('gives two platforms one root but identities of their own', async () => {
    const pkiDir = join(root, 'pki');
    const a = await SimulatedPlatform.open({ dir: join(root, 'a'), composeHash: HASH, pkiDir });
    const b = await SimulatedPlatform.open({ dir: join(root, 'b'), composeHash: HASH, pkiDir });
    const alone = await SimulatedPlatform.open({ dir: join(root, 'c'), composeHash: HASH });
    expect(Buffer.from(a.rootCa.der).equals(Buffer.from(b.rootCa.der))).toBe(true);
    expect(Buffer.from(a.rootCa.der).equals(Buffer.from(alone.rootCa.der))).toBe(false);
    expect(a.instanceId).not.toBe(b.instanceId);
  });
});
