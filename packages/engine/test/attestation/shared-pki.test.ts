import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimulatedPlatform } from '../../src/attestation/simulated-platform.js';
import { loadOrCreateSimulatedPki, rootDer } from '../../src/attestation/simulated-pki.js';

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

  it('gives machines starting at once on a new shared PKI directory one root', async () => {
    const pkiDir = join(root, 'race', 'pki');
    const pkis = await Promise.all([1, 2, 3].map(() => loadOrCreateSimulatedPki(pkiDir)));
    const roots = pkis.map((p) => Buffer.from(rootDer(p)).toString('hex'));
    expect(new Set(roots).size).toBe(1);
    const reloaded = await loadOrCreateSimulatedPki(pkiDir);
    expect(Buffer.from(rootDer(reloaded)).toString('hex')).toBe(roots[0]);
    // The losers' staging directories are gone.
    expect(readdirSync(join(root, 'race'))).toEqual(['pki']);
  });

  it('refuses a PKI directory left incomplete, rather than mixing two roots', async () => {
    const pkiDir = join(root, 'broken');
    mkdirSync(pkiDir, { mode: 0o700 });
    writeFileSync(join(pkiDir, 'root.pem'), 'half', { mode: 0o600 });
    await expect(loadOrCreateSimulatedPki(pkiDir)).rejects.toThrow(/incomplete simulated PKI/);
  });
});
