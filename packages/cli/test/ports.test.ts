/** A taken port (issue 32 item 7): a real socket holds it while the port is chosen. */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../src/args.js';
import { choosePort, isPortFree, movedPortNote } from '../src/ports.js';

const held: Server[] = [];
afterEach(async () => {
  for (const s of held.splice(0)) await new Promise((r) => s.close(r));
});

/** Listens on a free loopback port (one whose successor is free too) and returns it. */
async function holdPort(): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((r) => server.listen({ host: '127.0.0.1', port: 0 }, r));
    const port = (server.address() as { port: number }).port;
    if (port < 65535 && (await isPortFree(port + 1))) {
      held.push(server);
      return port;
    }
    await new Promise((r) => server.close(r));
  }
}

describe('choosePort', () => {
  it('sees a held port as taken and a released one as free', async () => {
    const port = await holdPort();
    expect(await isPortFree(port)).toBe(false);
    await new Promise((r) => held.pop()!.close(r));
    expect(await isPortFree(port)).toBe(true);
  });

  it('with no flag, takes the next free port after a taken default and says so', async () => {
    const port = await holdPort();
    const chosen = await choosePort('--app-port', undefined, port);
    expect(chosen).toEqual({ port: port + 1, moved: { from: port, flag: '--app-port' } });
    expect(movedPortNote('the trading app', chosen)).toBe(
      `the trading app: port ${port} is taken, so it listens on ${port + 1} (choose one with --app-port)`,
    );
  });

  it('keeps a free default with no note', async () => {
    const port = await holdPort();
    await new Promise((r) => held.pop()!.close(r));
    const chosen = await choosePort('--port', undefined, port);
    expect(chosen).toEqual({ port });
    expect(movedPortNote('the venue', chosen)).toBeUndefined();
  });

  it('refuses a given port that is taken, naming the flag', async () => {
    const port = await holdPort();
    const attempt = choosePort('--app-port', port, 8480);
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(choosePort('--app-port', port, 8480)).rejects.toThrow(
      `port ${port} on 127.0.0.1 is taken (--app-port ${port})`,
    );
    await expect(choosePort('--port', port, 8443)).rejects.toThrow(/\(--port \d+\).*pass another --port/);
  });

  it('passes 0 (any free port) through untouched', async () => {
    expect(await choosePort('--port', 0, 8443)).toEqual({ port: 0 });
  });
});
