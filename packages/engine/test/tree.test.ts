import { MerkleTree, verifyMerkleProof } from '@nightjar/crypto';
import { FIELD_MODULUS, fieldToHex } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, USDC, type TestVenue } from '@nightjar/testkit';

describe('tree mirror reads over HTTPS', () => {
  let v: TestVenue;
  let token: string;
  const commitments: string[] = [];

  beforeAll(async () => {
    v = await startTestVenue();
    ({ token } = await v.newAccount());
    const t = v.trader();
    for (let i = 0; i < 3; i++) commitments.push((await t.deposit(USDC, BigInt(1000 + i), 1)).commitment);
  });
  afterAll(async () => {
    await v.close();
  });

  it('root equals the chain’s finalized root, and is public', async () => {
    const r = await v.client.send('/tree/root?tree_id=1');
    const chain = await v.ledger.getTreeRoot({ tree_id: 1, commitment: 'finalized' });
    expect(r.body).toMatchObject({ tree_id: 1, merkle_root: chain.merkle_root, leaf_count: 3 });
    expect(r.body.on_chain_slot).toBeGreaterThan(0);
    expect((await v.client.send('/tree/root')).body.tree_id).toBe(0);
    expect((await v.client.send('/tree/root?tree_id=9')).body.code).toBe(1001);
    expect((await v.client.send('/tree/root?tree_id=-1')).body.code).toBe(1001);
  });

  it('inclusion proofs verify against the root; bearer only; unknown note 404', async () => {
    const reference = new MerkleTree();
    for (const c of commitments) reference.append(BigInt('0x' + c));
    const r = await v.client.send(
      `/tree/inclusion?note_commitment=${commitments[1]!.toUpperCase()}&tree_id=1`,
      { token },
    );
    expect(r.status).toBe(200);
    expect(r.body.leaf_index).toBe(1);
    expect(r.body.siblings).toHaveLength(20);
    expect(r.body.merkle_root).toBe(fieldToHex(reference.root));
    expect(
      verifyMerkleProof(
        BigInt('0x' + commitments[1]),
        1,
        r.body.siblings.map((s: string) => BigInt('0x' + s)),
        reference.root,
      ),
    ).toBe(true);
    expect((await v.client.send(`/tree/inclusion?note_commitment=${commitments[1]}&tree_id=1`)).status).toBe(
      401,
    );
    expect(
      (await v.client.send(`/tree/inclusion?note_commitment=${'01'.repeat(32)}&tree_id=1`, { token })).status,
    ).toBe(404);
    expect((await v.client.send('/tree/inclusion?note_commitment=xyz', { token })).body.code).toBe(1001);
  });

  it('a note_commitment that is not a field element (>= r) is 400 1001, not a lookup miss', async () => {
    for (const value of [FIELD_MODULUS, FIELD_MODULUS + 1n, (1n << 256n) - 1n]) {
      const hex = value.toString(16).padStart(64, '0');
      const r = await v.client.send(`/tree/inclusion?note_commitment=${hex}&tree_id=1`, { token });
      expect([r.status, r.body.code]).toEqual([400, 1001]);
    }
    const below = (FIELD_MODULUS - 1n).toString(16);
    const r = await v.client.send(`/tree/inclusion?note_commitment=${below}&tree_id=1`, { token });
    expect([r.status, r.body.code]).toEqual([404, 1301]);
  });

  it('integer parameters are canonical decimals on every tree read', async () => {
    for (const q of ['tree_id=01', 'tree_id=1.0', 'tree_id=%2B1', 'tree_id=', 'tree_id=256'])
      expect((await v.client.send(`/tree/root?${q}`)).body.code).toBe(1001);
    for (const q of ['from=01&to=2', 'from=0&to=1e3', 'from=0&to=4294967297', 'from=-0&to=1'])
      expect((await v.client.send(`/tree/leaves?${q}&tree_id=1`, { token })).body.code).toBe(1001);
  });

  it('leaves are half-open [from, to) and capped', async () => {
    const r = await v.client.send('/tree/leaves?from=1&to=3&tree_id=1', { token });
    expect(r.body.leaves).toEqual([
      { leaf_index: 1, value: commitments[1] },
      { leaf_index: 2, value: commitments[2] },
    ]);
    expect(
      (await v.client.send('/tree/leaves?from=2&to=100000&tree_id=1', { token })).body.leaves,
    ).toHaveLength(1);
    expect((await v.client.send('/tree/leaves?from=3&to=1&tree_id=1', { token })).body.code).toBe(1001);
    expect((await v.client.send('/tree/leaves?from=0&tree_id=1', { token })).body.code).toBe(1001);
    expect((await v.client.send('/tree/leaves?from=0&to=1', {})).status).toBe(401);
  });

  it('a shard whose mirror diverges from the chain answers 503 5002 on all three reads', async () => {
    await v.ledger.setFaults({ divergedShards: [2] });
    await v.trader().deposit(USDC, 77n, 2);
    await v.engine.context.trees.checkAgainstChain();
    for (const path of [
      '/tree/root?tree_id=2',
      `/tree/inclusion?note_commitment=${commitments[0]}&tree_id=2`,
      '/tree/leaves?from=0&to=1&tree_id=2',
    ]) {
      const r = await v.client.send(path, { token });
      expect([r.status, r.body.code]).toEqual([503, 5002]);
    }
    // Other shards are unaffected; a resync from the chain's leaves heals the shard.
    expect((await v.client.send('/tree/root?tree_id=1')).status).toBe(200);
    await v.ledger.setFaults({ divergedShards: [] });
    await v.engine.context.trees.resync(2);
    expect((await v.client.send('/tree/root?tree_id=2')).status).toBe(200);
  });
});
