import { describe, expect, it } from 'vitest';
import { reportingProver, type ProofProgress, type Prover } from './prover.js';

const proof = { proof: new Uint8Array([1]), publicInputs: [] as bigint[] };

describe('reportingProver', () => {
  it('tells each proof starting and done, around the inner prover', async () => {
    const told: (ProofProgress | 'inner')[] = [];
    const inner = {
      proveValidInputV2: async () => (told.push('inner'), proof),
      close: async () => undefined,
    } as unknown as Prover;
    await reportingProver(inner, (e) => told.push(e)).proveValidInputV2({} as never);
    expect(told).toEqual([
      { proof: 'valid_input', stage: 'start' },
      'inner',
      { proof: 'valid_input', stage: 'done' },
    ]);
  });

  it('a failed proof tells its start and no done', async () => {
    const told: ProofProgress[] = [];
    const inner = {
      proveValidJoinSplit: async () => {
        throw new Error('refused');
      },
    } as unknown as Prover;
    await expect(
      reportingProver(inner, (e) => told.push(e)).proveValidJoinSplit({} as never),
    ).rejects.toThrow('refused');
    expect(told).toEqual([{ proof: 'valid_join_split', stage: 'start' }]);
  });
});
