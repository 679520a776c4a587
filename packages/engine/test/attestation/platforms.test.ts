/**
 * The platforms on their own: the simulated PKI persists (keys 0600) and keeps verifying across
 * reopenings, collateral of another TCB status is reported as such, the compose hash follows the
 * release, and the dstack platform works against a fake guest-agent socket (a real CVM cannot run
 * here).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QuoteVerifier } from '@phala/dcap-qvl';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPOSE_HASH_EVENT } from '@nightjar/protocol';
import {
  buildCollateral,
  computeComposeHash,
  DstackPlatform,
  releaseFiles,
  SimulatedPlatform,
} from '../../src/index.js';
import { startFakeDstackAgent } from '@nightjar/testkit/fixtures';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'nightjar-attest-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const COMPOSE = 'cd'.repeat(32);

function verify(platform: SimulatedPlatform, quote: Uint8Array, collateral = platform.currentCollateral()) {
  return QuoteVerifier.newWithRootCa(Buffer.from(platform.rootCa.der)).verify(
    quote,
    collateral,
    Date.now() / 1000,
  );
}

describe('simulated platform', () => {
  it('keeps its PKI, identity and sealed keys in the data directory, private keys 0600', async () => {
    const dir = tempDir();
    const a = await SimulatedPlatform.open({ dir, composeHash: COMPOSE });
    const b = await SimulatedPlatform.open({ dir, composeHash: COMPOSE });
    expect(Buffer.from(b.rootCa.der)).toEqual(Buffer.from(a.rootCa.der));
    expect(readFileSync(a.rootCa.path!)).toEqual(Buffer.from(a.rootCa.der));
    expect([b.appId, b.instanceId]).toEqual([a.appId, a.instanceId]);
    expect(await b.deriveKeySeed('settlement')).toEqual(await a.deriveKeySeed('settlement'));
    expect(await a.deriveKeySeed('other')).not.toEqual(await a.deriveKeySeed('settlement'));
    for (const f of ['root-ca', 'pck-platform-ca', 'pck', 'tcb-signing'])
      expect(statSync(join(dir, 'pki', `${f}.key.pem`)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'pki', 'attestation-key.pem')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'identity.json')).mode & 0o777).toBe(0o600);
    // A quote made after reopening verifies under the root kept from the first boot.
    const q = await b.quote(new Uint8Array(64).fill(1));
    expect(verify(a, q.quote, q.collateral).status).toBe('UpToDate');
  });

  it('reports the TCB status the collateral states', async () => {
    const p = await SimulatedPlatform.open({ dir: undefined, composeHash: COMPOSE });
    const q = await p.quote(new Uint8Array(64));
    expect(verify(p, q.quote, buildCollateral(p.pki, { tcbStatus: 'OutOfDate' })).status).toBe('OutOfDate');
    expect(() => verify(p, q.quote, buildCollateral(p.pki, { tcbStatus: 'Revoked' }))).toThrow(
      /TCB status is invalid/,
    );
  });

  it('refuses a quote under another root and a quote whose body was altered', async () => {
    const p = await SimulatedPlatform.open({ dir: undefined, composeHash: COMPOSE });
    const other = await SimulatedPlatform.open({ dir: undefined, composeHash: COMPOSE });
    const q = await p.quote(new Uint8Array(64));
    expect(() => verify(other, q.quote, q.collateral)).toThrow(/certificate chain/i);
    const altered = Buffer.from(q.quote);
    altered[48 + 136]! ^= 1; // a byte of MRTD
    expect(() => verify(p, altered, q.collateral)).toThrow(/signature is invalid/);
  });
});

describe('compose hash', () => {
  it('covers the lock file, package sources and circuit artifacts, and changes with any of them', () => {
    const root = tempDir();
    mkdirSync(join(root, 'packages', 'a', 'src', 'deep'), { recursive: true });
    mkdirSync(join(root, 'packages', 'a', 'test'), { recursive: true });
    mkdirSync(join(root, 'packages', 'circuits', 'artifacts'), { recursive: true });
    writeFileSync(join(root, 'package-lock.json'), '{}');
    writeFileSync(join(root, 'packages', 'a', 'src', 'deep', 'x.ts'), 'export {}');
    writeFileSync(join(root, 'packages', 'a', 'test', 'x.test.ts'), 'ignored');
    writeFileSync(join(root, 'packages', 'circuits', 'artifacts', 'k.zkey'), 'zk');
    expect(releaseFiles(root)).toEqual([
      'package-lock.json',
      'packages/a/src/deep/x.ts',
      'packages/circuits/artifacts/k.zkey',
    ]);
    const before = computeComposeHash(root);
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(root, 'packages', 'a', 'test', 'x.test.ts'), 'still ignored');
    const root2 = tempDir();
    mkdirSync(join(root2, 'packages', 'a', 'src', 'deep'), { recursive: true });
    writeFileSync(join(root2, 'package-lock.json'), '{}');
    writeFileSync(join(root2, 'packages', 'a', 'src', 'deep', 'x.ts'), 'export {} // changed');
    expect(computeComposeHash(root2)).not.toBe(before);
  });

  it('of this checkout is computed over real files', () => {
    expect(releaseFiles()).toContain('packages/engine/src/attestation/compose-hash.ts');
    expect(releaseFiles()).toContain('package-lock.json');
  });
});

describe('dstack platform (against a fake guest-agent socket; no real CVM here)', () => {
  it('takes identity, quotes, event log and keys from the dstack SDK', async () => {
    const dir = tempDir();
    const socket = join(dir, 'dstack.sock');
    // The fake agent answers with quotes from a simulated TD, so the bytes are a real quote.
    const td = await SimulatedPlatform.open({ dir: undefined, composeHash: COMPOSE });
    const agent = await startFakeDstackAgent(socket, td);
    const calls = agent.calls;
    try {
      const p = await DstackPlatform.open({ endpoint: socket });
      expect([p.kind, p.appId, p.instanceId, p.composeHash]).toEqual([
        'dstack',
        td.appId,
        td.instanceId,
        COMPOSE,
      ]);
      const q = await p.quote(new Uint8Array(64).fill(9));
      expect(verify(td, q.quote).status).toBe('UpToDate');
      expect(q.collateral).toBeUndefined();
      expect(q.eventLog.filter((e) => e.event === COMPOSE_HASH_EVENT)[0]!.event_payload).toBe(COMPOSE);
      const seed = await p.deriveKeySeed('settlement');
      expect(seed).toHaveLength(32);
      expect(await p.deriveKeySeed('settlement')).toEqual(seed);
      expect(calls).toEqual(['/Info', '/GetQuote', '/GetKey', '/GetKey']);
    } finally {
      await agent.close();
    }
  });
});

describe('an engine on the dstack platform (fake guest agent)', () => {
  it('serves transport attestation from the agent: no collateral, a client fetches it from a PCCS', async () => {
    const { startTestVenue } = await import('@nightjar/testkit');
    const dir = tempDir();
    const td = await SimulatedPlatform.open({ dir: undefined, composeHash: COMPOSE });
    const agent = await startFakeDstackAgent(join(dir, 'dstack.sock'), td);
    const platform = await DstackPlatform.open({ endpoint: join(dir, 'dstack.sock') });
    const v = await startTestVenue({ attestation: { platform } });
    try {
      const r = await v.client.send(`/transport-attestation?nonce=${'42'.repeat(32)}`);
      expect(r.status).toBe(200);
      expect(r.body.collateral).toBeUndefined();
      // Here the "PCCS" is the simulated TD's own collateral.
      expect(verify(td, Buffer.from(r.body.quote, 'hex')).status).toBe('UpToDate');
      const info = await v.client.send('/info');
      expect(info.body.attestation).toMatchObject({ platform: 'dstack', compose_hash: COMPOSE });
      expect(v.engine.attestation.rootCa).toBeUndefined();
    } finally {
      await v.close();
      await agent.close();
    }
  });
});
