/**
 * The registry the queue seals jobs to: a worker lapses after its ttl unless it registers again,
 * a machine's new boot replaces its old key (the old process and its key are gone), and a full
 * registry refuses a new machine rather than evicting a live one.
 */
import { describe, expect, it } from 'vitest';
import { generateX25519KeyPair } from '@nightjar/crypto';
import { proverWorkerId } from '@nightjar/protocol';
import {
  DroppedWorkerError,
  ProverChallenges,
  ProverRegistry,
  type AttestedWorker,
} from '../../src/index.js';

function worker(now: number): AttestedWorker {
  const { publicKey } = generateX25519KeyPair();
  return {
    workerId: proverWorkerId(publicKey),
    sealingPublicKey: publicKey,
    composeHash: 'ab'.repeat(32),
    attestedAtMs: now,
  };
}

describe('ProverRegistry', () => {
  it('lapses a worker after its ttl unless it registers again', () => {
    let now = 1_000;
    const registry = new ProverRegistry({ now: () => now, ttlMs: 100 });
    const w = worker(now);
    registry.admit(w, 'machine-1');
    now += 90;
    registry.admit(w, 'machine-1');
    now += 90;
    expect(registry.get(w.workerId)).toBe(w);
    now += 20;
    expect(registry.get(w.workerId)).toBeUndefined();
    expect(registry.list()).toHaveLength(0);
  });

  it("replaces a machine's old key when it registers from a new boot", () => {
    const registry = new ProverRegistry({ now: () => 0 });
    const old = worker(0);
    const reborn = worker(0);
    registry.admit(old, 'machine-1');
    registry.admit(reborn, 'machine-1');
    expect(registry.get(old.workerId)).toBeUndefined();
    expect(registry.list()).toEqual([reborn]);
  });

  it('refuses a new machine when full, keeping the live ones', () => {
    const registry = new ProverRegistry({ now: () => 0, maxWorkers: 2 });
    expect(registry.admit(worker(0), 'a')).toBe(true);
    expect(registry.admit(worker(0), 'b')).toBe(true);
    expect(registry.admit(worker(0), 'c')).toBe(false);
    expect(registry.admit(worker(0), 'a')).toBe(true);
    expect(registry.list()).toHaveLength(2);
  });
});

describe('ProverRegistry.drop', () => {
  it('drops a worker whose proof failed and refuses its key again; a restarted worker may return', () => {
    const registry = new ProverRegistry({ now: () => 0 });
    const [faulty, other] = [worker(0), worker(0)];
    registry.admit(faulty, 'machine-1');
    registry.admit(other, 'machine-2');
    registry.drop(faulty.workerId);
    expect(registry.list()).toEqual([other]);
    expect(() => registry.admit(faulty, 'machine-1')).toThrow(DroppedWorkerError);
    expect(registry.get(faulty.workerId)).toBeUndefined();
    // The same machine with a new process (a new sealing key) is admitted.
    const restarted = worker(0);
    expect(registry.admit(restarted, 'machine-1')).toBe(true);
    expect(registry.list()).toHaveLength(2);
  });
});

describe('ProverChallenges', () => {
  it('keeps at most `max` nonces outstanding, forgetting the oldest', () => {
    const challenges = new ProverChallenges({ now: () => 0, max: 2 });
    const first = challenges.issue();
    const second = challenges.issue();
    const third = challenges.issue();
    expect(challenges.size).toBe(2);
    expect(challenges.take(first)).toBe(false);
    expect(challenges.take(second)).toBe(true);
    expect(challenges.take(third)).toBe(true);
    expect(challenges.take(third)).toBe(false);
  });
});
