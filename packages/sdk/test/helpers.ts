/**
 * The SDK's tests run against a real engine (the test kit's in-process venue: HTTPS, in-process
 * ledger, simulated platform), pinning what a client would pin from ready.json.
 */
import { randomBytes } from 'node:crypto';
import { addressToBase58 } from '@nightjar/protocol';

export { devCircuitKeys, startTestVenue, FAST_ARGON2, stubVerifyInputProof, pins } from '@nightjar/testkit';
export type { TestVenue } from '@nightjar/testkit';

/** A ledger address nobody has used: a withdrawal's recipient that links to nothing. */
export function freshAddress(): string {
  return addressToBase58(new Uint8Array(randomBytes(32)));
}

export interface LoggedRequest {
  url: string;
  port: number;
  timeMs: number;
}

/**
 * A Fastify logger stream that records each incoming request with its client port and time (and
 * tells `onRequest` of it as it comes).
 */
export function requestLog(onRequest?: (r: LoggedRequest) => void): {
  logger: never;
  requests: LoggedRequest[];
} {
  const requests: LoggedRequest[] = [];
  const stream = {
    write(line: string) {
      const o = JSON.parse(line) as { msg?: string; time: number; req?: { url: string; remotePort: number } };
      if (o.msg !== 'incoming request' || !o.req) return;
      const r = { url: o.req.url, port: o.req.remotePort, timeMs: o.time };
      requests.push(r);
      onRequest?.(r);
    },
  };
  return { logger: { level: 'info', stream } as never, requests };
}

export async function expectRejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}
