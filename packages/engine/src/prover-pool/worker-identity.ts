/**
 * A prover worker's identity for one boot: a fresh X25519 sealing key pair (the private key lives
 * in this process's memory only, so a restarted worker is a new worker the engine must attest
 * again), the id the queue names it by, and a boot session bound into its manifest.
 */
import { randomBytes } from 'node:crypto';
import { generateX25519KeyPair, type X25519KeyPair } from '@nightjar/crypto';
import { proverWorkerId } from '@nightjar/protocol';

export interface WorkerIdentity {
  sealingKeys: X25519KeyPair;
  /** Hex of the first 16 bytes of SHA-256(sealing public key). */
  workerId: string;
  /** 32 bytes hex, fresh per boot (check (d)). */
  bootSessionId: string;
}

export function createWorkerIdentity(): WorkerIdentity {
  const sealingKeys = generateX25519KeyPair();
  return {
    sealingKeys,
    workerId: proverWorkerId(sealingKeys.publicKey),
    bootSessionId: randomBytes(32).toString('hex'),
  };
}
