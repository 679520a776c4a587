/**
 * The root window survives an engine restart: the restarted engine's tree mirror reads the chain's
 * window back (`getRootWindow`), so an order proved against an older root that the chain still
 * accepts is placed, not refused with 1010. Over HTTPS, same data directory, same ledger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMITMENT_LAG } from '@nightjar/ledger';
import { fieldToHex } from '@nightjar/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine } from '../src/index.js';
import {
  devCircuitKeys,
  FAST_ARGON2,
  login,
  startTestVenue,
  stubVerifyInputProof,
  USDC,
  HttpsClient,
} from '@nightjar/testkit';
import type { TestVenue } from '@nightjar/testkit';

describe('root window across an engine restart', () => {
  let venue: TestVenue | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await venue?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    venue = dataDir = undefined;
  });

  it('an order proved against an older root is placed after a restart (202); one signed for the old boot session is 1205', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nightjar-root-window-'));
    const v = (venue = await startTestVenue({ dataDir }));
    const { credentials } = await v.newAccount();
    const alice = v.trader();
    const note = await alice.deposit(USDC, 10_000_000_000n);
    const oldRoot = fieldToHex(v.engine.context.trees.shard(0)!.root);
    // A few more leaves in the shard, each its own append: the note's root is no longer current.
    for (let i = 0; i < 3; i++) await alice.depositNow(USDC, 1_000_000n);
    await v.advance(COMMITMENT_LAG.finalized + 1);
    await v.engine.context.trees.checkAgainstChain();
    expect(v.engine.context.trees.shard(0)!.size).toBe(4);
    expect(v.engine.context.trees.isRecentRoot(0, oldRoot)).toBe(true);
    const signedForOldBoot = alice.order(note);

    v.client.close();
    await v.engine.close();
    v.engine = await startEngine({
      ledger: v.ledger,
      circuitKeys: await devCircuitKeys(),
      port: 0,
      dev: true,
      hasher: FAST_ARGON2,
      verifyInputProof: stubVerifyInputProof,
      dataDir,
    });
    v.client = new HttpsClient(v.engine.url, v.engine.certificate.certPem);
    const token = await login(v.client, credentials);
    const place = (body: object) => v.client.send('/orders', { token, body });

    expect(v.engine.bootSessionId).not.toBe(signedForOldBoot.session_id);
    expect((await place(signedForOldBoot)).body.code).toBe(1205);
    const proved = alice.order(note, { merkle_root: oldRoot });
    const placed = await place(proved);
    expect([placed.status, placed.body.order_id]).toEqual([202, proved.order_id]);
  });
});
