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

    // Every cryptographic step runs in the workers, and the spec's order still decides the code.
    const fields = { valid_input_proof: bytesToHex(forged), price_limit: 100_000_000n };
    const send = (body: object) => v.client.send('/orders', { token, body });
    const badSig = '11'.repeat(64);
    expect((await send(trader.order(note, { ...fields, trading_key_signature: badSig }))).body.code).toBe(
      1102,
    );
    // A wrong opening (1006) comes before a tick error (1009) and a bad signature.
    const wrongOpening = { ...fields, note_inner_hash: '00'.repeat(31) + '07', price_limit: 100_000_001n };
    expect(
      (await send(trader.order(note, { ...wrongOpening, trading_key_signature: badSig }))).body.code,
    ).toBe(1006);
    // A bad signature (1102) comes before an expiry inside the settlement buffer (1012).
    const soon = BigInt(v.engine.context.chain.slot + 2);
    expect(
      (await send(trader.order(note, { ...fields, expiry_slot: soon, trading_key_signature: badSig }))).body
        .code,
    ).toBe(1102);
    // The proof (1011) comes before the session (1205): a forged proof for another boot is 1011.
    expect((await send(trader.order(note, { ...fields, session_id: 'ab'.repeat(32) }))).body.code).toBe(1011);

    // Cancel signatures are verified in the workers too.
    const id = good.body.order_id as string;
    const forgedCancel = { ...trader.cancelBody(id), trading_key_signature: badSig };
    expect(
      (await v.client.send(`/orders/${id}`, { method: 'DELETE', token, body: forgedCancel })).body.code,
    ).toBe(1102);
    const cancelled = await v.client.send(`/orders/${id}`, {
      method: 'DELETE',
      token,
      body: trader.cancelBody(id),
    });
    expect(cancelled.body).toEqual({ order_id: id, status: 'cancelled' });
  }, 60_000);
});
