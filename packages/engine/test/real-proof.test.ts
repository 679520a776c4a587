import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { bytesToHex, parseAddress } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, USDC, type TestVenue } from './harness.js';

describe('intake with real VALID_INPUT proofs through the worker-pool batcher', () => {
  let v: TestVenue;
  let prover: NoteProver;
  beforeAll(async () => {
    prover = new NoteProver();
    await prover.start();
    v = await startTestVenue({
      verifyInputProof: undefined,
      validInputKey: await loadVerificationKey('valid_input'),
      verifierWorkers: 1,
    });
  });
  afterAll(async () => {
    await prover.close();
    await v.close();
  });

  it('accepts a genuine proof and refuses a forged one with 1011', async () => {
    const { token } = await v.newAccount();
    const trader = v.trader();
    const note = await trader.deposit(USDC, 500_000_000n);
    const shard = v.engine.context.trees.shard(0)!;
    const path = shard.proof(shard.indexOf(BigInt('0x' + note.commitment))!);
    const proof = await prover.proveValidInput({
      note: {
        mint: parseAddress(USDC)!,
        amount: note.amount,
        spendingKey: note.spendingKey,
        noteInnerHash: BigInt('0x' + note.innerHash),
      },
      path,
    });
    const forged = Buffer.from(proof.proof);
    forged[100]! ^= 1;
    const bad = await v.client.send('/orders', {
      token,
      body: trader.order(note, {
        valid_input_proof: bytesToHex(forged),
        price_limit: 100_000_000n,
        amount: 1_000_000_000n,
      }),
    });
    expect(bad.body.code).toBe(1011);
    const good = await v.client.send('/orders', {
      token,
      body: trader.order(note, {
        valid_input_proof: bytesToHex(proof.proof),
        price_limit: 100_000_000n,
        amount: 1_000_000_000n,
      }),
    });
    expect(good.status).toBe(202);
  }, 60_000);
});
