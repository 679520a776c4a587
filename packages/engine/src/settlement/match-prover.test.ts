import { describe, expect, it } from 'vitest';
import type { NoteProver, ValidLockParams, ValidMatchV2Params } from '@nightjar/circuits';
import { MatchProverBusyError, MatchProverClosedError, NoteMatchProver } from './match-prover.js';

/** A NoteProver whose proofs finish when the test says so. */
function manualProver() {
  const started: { params: ValidMatchV2Params; finish(ok: boolean): void }[] = [];
  const lockStarted: ValidLockParams[] = [];
  const prover = {
    proveValidLock(params: ValidLockParams) {
      lockStarted.push(params);
      return new Promise(() => undefined);
    },
    proveValidMatchV2(params: ValidMatchV2Params) {
      return new Promise((resolve, reject) => {
        started.push({
          params,
          finish: (ok) =>
            ok
              ? resolve({ proof: new Uint8Array(256), publicInputs: {}, publicSignals: [], outputs: [] })
              : reject(new Error('prover failed')),
        });
      });
    },
    close: async () => undefined,
  } as unknown as NoteProver;
  return { prover, started, lockStarted };
}

const params = (n: number) => ({ quantity: BigInt(n) }) as unknown as ValidMatchV2Params;

describe('NoteMatchProver', () => {
  it('runs `workers` proofs at once and starts the next as one finishes', async () => {
    const { prover, started } = manualProver();
    const p = new NoteMatchProver({ prover, workers: 2 });
    const results = [1, 2, 3].map((n) => p.prove(params(n)));
    expect(started.map((s) => s.params.quantity)).toEqual([1n, 2n]);
    expect(p.queued).toBe(1);
    started[0]!.finish(true);
    await results[0];
    expect(started.map((s) => s.params.quantity)).toEqual([1n, 2n, 3n]);
    started[1]!.finish(false);
    await expect(results[1]).rejects.toThrow('prover failed');
    started[2]!.finish(true);
    await expect(results[2]).resolves.toMatchObject({ outputs: [] });
  });

  it('drops an aborted proof that is still waiting: it never reaches the prover', async () => {
    const { prover, started } = manualProver();
    const p = new NoteMatchProver({ prover, workers: 1 });
    const first = p.prove(params(1));
    const ctrl = new AbortController();
    const second = p.prove(params(2), ctrl.signal);
    ctrl.abort(new Error('no longer needed'));
    await expect(second).rejects.toThrow('no longer needed');
    started[0]!.finish(true);
    await first;
    expect(started.map((s) => s.params.quantity)).toEqual([1n]);
    expect(p.queued).toBe(0);
  });

  it('lock proofs share the same workers and queue as match proofs', async () => {
    const { prover, started, lockStarted } = manualProver();
    const p = new NoteMatchProver({ prover, workers: 1 });
    const first = p.prove(params(1));
    void p.proveLock({ amount: 7n } as unknown as ValidLockParams);
    expect(lockStarted).toHaveLength(0);
    expect(p.queued).toBe(1);
    started[0]!.finish(true);
    await first;
    expect(lockStarted.map((l) => l.amount)).toEqual([7n]);
  });

  it('refuses a proof beyond its queue, and everything once closed', async () => {
    const { prover } = manualProver();
    const p = new NoteMatchProver({ prover, workers: 1, maxQueue: 1 });
    void p.prove(params(1)); // running
    const waiting = p.prove(params(2)); // queued
    await expect(p.prove(params(3))).rejects.toBeInstanceOf(MatchProverBusyError);
    await p.close();
    await expect(waiting).rejects.toBeInstanceOf(MatchProverClosedError);
    await expect(p.prove(params(4))).rejects.toBeInstanceOf(MatchProverClosedError);
  });

  it('warms both circuits the settlement proves, and answers the timed proof', async () => {
    const warmed: string[][] = [];
    const prover = {
      warm: (circuits: string[]) => {
        warmed.push([...circuits]);
        return Promise.resolve(1234);
      },
      close: async () => undefined,
    } as unknown as NoteProver;
    const p = new NoteMatchProver({ prover, workers: 2 });
    await expect(p.warm()).resolves.toBe(1234);
    expect(warmed).toEqual([['valid_match_v2', 'valid_lock']]);
    await p.close();
    await expect(p.warm()).rejects.toBeInstanceOf(MatchProverClosedError);
  });
});
