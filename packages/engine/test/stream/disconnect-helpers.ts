/**
 * Shared by the cancel-on-disconnect tests: a proof check the test can hold open (to close a
 * socket while an order operation is in flight), an order's status over REST, and a close the
 * engine has seen.
 */
import type { TestVenue } from '@nightjar/testkit';
import { eventually, type StreamClient } from './stream-client.js';

export class ProofGate {
  private waiting: (() => void)[] = [];
  private closed = false;

  /** The venue's `verifyInputProof`: a proof whose first byte is 0xee is bad. */
  readonly verify = async (proof: Uint8Array): Promise<boolean> => {
    if (this.closed) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return proof[0] !== 0xee;
  };

  /** From now on proof checks wait for `release`. */
  hold(): void {
    this.closed = true;
  }

  /** Proof checks waiting now. */
  get held(): number {
    return this.waiting.length;
  }

  /** Lets every waiting check finish, and checks stop waiting. */
  release(): void {
    this.closed = false;
    for (const resolve of this.waiting) resolve();
    this.waiting = [];
  }
}

export async function orderStatus(v: TestVenue, token: string, orderId: string): Promise<string> {
  return (await v.client.send(`/orders/${orderId}`, { token })).body.status as string;
}

/** Closes the stream client and waits until the engine has dropped the socket. */
export async function disconnected(v: TestVenue, c: StreamClient): Promise<void> {
  const before = v.engine.context.streamHub.stats().sockets;
  await c.close();
  await eventually(() => v.engine.context.streamHub.stats().sockets < before, 'the engine to see the close');
}
