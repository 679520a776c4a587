import { describe, expect, it } from 'vitest';
import { FairProofQueue } from './fair-proof-queue.js';

/** A queue whose tasks the test finishes by hand; `started` lists them in the order they began. */
function world(concurrency = 1) {
  const q = new FairProofQueue(concurrency);
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const submit = (lane: string, name: string, signal?: AbortSignal) =>
    q.run(
      lane,
      () =>
        new Promise<string>((resolve) => {
          started.push(name);
          finish.set(name, () => resolve(name));
        }),
      signal,
    );
  /** Finishes `name` and lets the queue start what follows. */
  const done = async (name: string) => {
    finish.get(name)!();
    await new Promise((r) => setImmediate(r));
  };
  return { submit, done, started };
}

describe('FairProofQueue', () => {
  it('serves markets in turn: a burst in one market waits behind one proof of each other', async () => {
    const { submit, done, started } = world();
    for (let i = 1; i <= 4; i++) void submit('A', `a${i}`);
    void submit('B', 'b1');
    void submit('C', 'c1');
    await new Promise((r) => setImmediate(r));
    for (const name of ['a1', 'a2', 'b1', 'c1', 'a3']) await done(name);
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'a4']);
  });

  it('runs `concurrency` tasks at once', async () => {
    const { submit, started } = world(2);
    for (const name of ['a1', 'a2', 'a3']) void submit('A', name);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a1', 'a2']);
  });

  it('an aborted waiting task leaves at once and never runs', async () => {
    const { submit, done, started } = world();
    void submit('A', 'a1');
    const ctrl = new AbortController();
    const b = submit('B', 'b1', ctrl.signal);
    void submit('B', 'b2');
    ctrl.abort(new Error('no longer wanted'));
    await expect(b).rejects.toThrow('no longer wanted');
    await new Promise((r) => setImmediate(r));
    await done('a1');
    expect(started).toEqual(['a1', 'b2']);
  });

  it('a task that fails frees its place for the next', async () => {
    const q = new FairProofQueue();
    await expect(q.run('A', () => Promise.reject(new Error('prover error')))).rejects.toThrow('prover error');
    await expect(q.run('A', async () => 'next')).resolves.toBe('next');
  });
});
