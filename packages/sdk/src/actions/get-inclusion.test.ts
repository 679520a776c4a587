/** `getInclusion`: the venue's path for a commitment (`GET /tree/inclusion`); one not in the tree is 1301. */
import { ZERO_FIELD, fakeClient, refusing } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { getInclusion } from './get-inclusion.js';

const COMMITMENT = '0a'.repeat(32);
const ROOT = '0b'.repeat(32);

describe('getInclusion', () => {
  it('returns the leaf index, the root and 20 siblings leaf to root, for shard 0 by default', async () => {
    const siblings = Array.from({ length: 20 }, (_, i) => (i === 0 ? '0c'.repeat(32) : ZERO_FIELD));
    const { client, requests } = fakeClient({
      routes: {
        'GET /tree/inclusion': ({ params }) => ({
          note_commitment: params.note_commitment,
          leaf_index: 77,
          merkle_root: ROOT,
          siblings,
        }),
      },
    });
    expect(await getInclusion(client, { commitment: COMMITMENT })).toEqual({
      leafIndex: 77,
      merkleRoot: ROOT,
      siblings,
    });
    await getInclusion(client, { commitment: COMMITMENT, treeId: 3 });
    expect(requests.map((r) => r.params)).toEqual([
      { note_commitment: COMMITMENT, tree_id: '0' },
      { note_commitment: COMMITMENT, tree_id: '3' },
    ]);
  });

  it('a commitment the venue’s tree lacks: NotFound (1301)', async () => {
    const { client } = fakeClient({
      routes: {
        'GET /tree/inclusion': refusing(1301, 404, 'note not in tree'),
      },
    });
    const err = await getInclusion(client, { commitment: COMMITMENT }).catch((e: unknown) => e);
    expect(isNightjarError(err, 1301)).toBe(true);
  });
});
