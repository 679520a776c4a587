/**
 * `waitForInclusion`: true once the venue's public leaf count passes the note's leaf (read without
 * the bearer, naming no note); false when `timeoutMs` passes first.
 */
import { FAKE_USDC, ZERO_FIELD, fakeClient, giveNote } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { waitForInclusion } from './wait-for-inclusion.js';

/** A venue whose tree grows by one leaf per read, from `start`. */
function growingTree(start: number) {
  let count = start;
  return {
    'GET /tree/root': () => ({ tree_id: 0, merkle_root: ZERO_FIELD, leaf_count: count++, on_chain_slot: 1 }),
  };
}

describe('waitForInclusion', () => {
  it('polls the public tree root until the leaf is in, never naming the note', async () => {
    const { client, requests, wallet } = fakeClient({ routes: growingTree(3) });
    const note = giveNote(wallet, FAKE_USDC, 10n, 5);
    expect(await waitForInclusion(client, { commitment: note.commitment, intervalMs: 1 })).toBe(true);
    expect(requests.map((r) => r.path)).toEqual(Array(4).fill('/tree/root?tree_id=0'));
    expect(requests.every((r) => !r.auth && !r.path.includes(note.commitment))).toBe(true);
  });

  it('false once timeoutMs passed without the leaf', async () => {
    const { client, wallet } = fakeClient({ routes: growingTree(0) });
    const note = giveNote(wallet, FAKE_USDC, 10n, 1_000);
    const started = Date.now();
    expect(
      await waitForInclusion(client, { commitment: note.commitment, timeoutMs: 30, intervalMs: 5 }),
    ).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
  });
});
