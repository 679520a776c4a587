/**
 * The native `prepare phase2` (native/ptau-prepare.cpp) writes the same file as snarkjs', byte for
 * byte, so the ceremony may use either; and it refuses what is not a contribution file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { NATIVE_PTAU_PREPARE, preparePhase2, preparePhase2Backend } from '../scripts/prepare-phase2.js';
import { snarkjs, terminateCurve } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'nightjar-ptau-'));
const contribution = join(dir, 'pot4_0001.ptau');

beforeAll(async () => {
  const curve = await snarkjs.curves.getCurveFromName('bn128');
  try {
    await snarkjs.powersOfTau.newAccumulator(curve, 4, join(dir, 'pot4_0000.ptau'));
  } finally {
    await curve.terminate();
  }
  await snarkjs.powersOfTau.contribute(join(dir, 'pot4_0000.ptau'), contribution, 'test', 'test entropy');
}, 120_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await terminateCurve();
});

describe('prepare phase 2', () => {
  it('is built by npm ci and chosen by default', () => {
    expect(preparePhase2Backend()).toBe('native');
    expect(preparePhase2Backend({ backend: 'snarkjs' })).toBe('snarkjs');
    expect(NATIVE_PTAU_PREPARE.endsWith(join('build', 'Release', 'ptau_prepare'))).toBe(true);
  });

  it('native and snarkjs write identical files, with 1 and 2 threads', async () => {
    await preparePhase2(contribution, join(dir, 'snarkjs.ptau'), { backend: 'snarkjs' });
    await preparePhase2(contribution, join(dir, 'native1.ptau'), { backend: 'native', threads: 1 });
    await preparePhase2(contribution, join(dir, 'native2.ptau'), { backend: 'native', threads: 2 });
    const expected = readFileSync(join(dir, 'snarkjs.ptau'));
    expect(expected.length).toBeGreaterThan(readFileSync(contribution).length);
    expect(readFileSync(join(dir, 'native1.ptau')).equals(expected)).toBe(true);
    expect(readFileSync(join(dir, 'native2.ptau')).equals(expected)).toBe(true);
  }, 120_000);

  it('refuses a file that is not a contribution, and leaves no output behind', async () => {
    const bogus = join(dir, 'bogus.ptau');
    writeFileSync(bogus, 'ptau but not really');
    await expect(preparePhase2(bogus, join(dir, 'out.ptau'), { backend: 'native' })).rejects.toThrow(
      /ptau_prepare exited with 1/,
    );
    expect(() => readFileSync(join(dir, 'out.ptau'))).toThrow();
    // A truncated real file: the sections run past its end.
    const truncated = join(dir, 'truncated.ptau');
    writeFileSync(truncated, readFileSync(contribution).subarray(0, 2000));
    await expect(preparePhase2(truncated, join(dir, 'out.ptau'), { backend: 'native' })).rejects.toThrow(
      /past the end|truncated/,
    );
  });
});
