/**
 * Which loopback port a service listens on. A default port that another program holds is not
 * fatal: the next free one is taken and the caller says so. A port the user named and that is
 * taken is an error naming the flag, since silently moving it would break what they set up.
 */
import { createServer } from 'node:net';
import { UsageError } from './args.js';

/** How many ports after the default are tried before giving up. */
export const PORT_SEARCH_SPAN = 32;

/** Whether `port` on 127.0.0.1 can be bound right now (it is bound and released at once). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

export interface ChosenPort {
  port: number;
  /** Set when the default port was taken and `port` is the next free one. */
  moved?: { from: number; flag: string };
}

/**
 * The port for a service: `given` (the flag's number, or undefined when the flag is absent) when it
 * is free, else a UsageError naming `flag`; with no flag, `fallback` or the first free port after it.
 */
export async function choosePort(
  flag: string,
  given: number | undefined,
  fallback: number,
): Promise<ChosenPort> {
  if (given === 0) return { port: 0 };
  if (given !== undefined) {
    if (await isPortFree(given)) return { port: given };
    throw new UsageError(
      `port ${given} on 127.0.0.1 is taken (${flag} ${given}): another program listens there; ` +
        `pass another ${flag} (0 picks a free one) or stop that program`,
    );
  }
  for (let port = fallback; port < fallback + PORT_SEARCH_SPAN && port <= 65535; port++)
    if (await isPortFree(port))
      return port === fallback ? { port } : { port, moved: { from: fallback, flag } };
  throw new UsageError(
    `ports ${fallback}..${fallback + PORT_SEARCH_SPAN - 1} on 127.0.0.1 are all taken: pass ${flag} (0 picks a free one)`,
  );
}

/** The line `nightjar start` prints when a default port was taken. */
export function movedPortNote(name: string, chosen: ChosenPort): string | undefined {
  if (!chosen.moved) return undefined;
  return `${name}: port ${chosen.moved.from} is taken, so it listens on ${chosen.port} (choose one with ${chosen.moved.flag})`;
}
