/**
 * The stream benchmark's load clients, in their own process (child_process.fork from
 * stream.bench.ts): N `ws` sockets over TLS trusting the engine's boot certificate, each logged in
 * and subscribed. It counts frames and checks each socket's seq without parsing whole frames (the
 * prefix is enough), so the clients cost as little CPU as possible on the shared machine.
 */
import { WebSocket } from 'ws';

export type LoadCommand =
  | { type: 'connect'; url: string; certPem: string; tokens: string[]; perAccount: number }
  | { type: 'subscribe'; channels: string[] }
  | { type: 'count' }
  | { type: 'close' };

export interface LoadCounts {
  type: 'counts';
  frames: number;
  events: number;
  seqErrors: number;
  closes: Record<string, number>;
  /** `performance.timeOrigin + performance.now()` of the last frame (a clock shared with the parent). */
  lastFrameAt: number;
  open: number;
}

interface Client {
  ws: WebSocket;
  seq: number;
  waiting: ((frame: string) => void) | undefined;
}

const clients: Client[] = [];
const counts: LoadCounts = {
  type: 'counts',
  frames: 0,
  events: 0,
  seqErrors: 0,
  closes: {},
  lastFrameAt: 0,
  open: 0,
};
const SEQ = /"seq":(\d+)/;

function send(message: object): void {
  process.send!(message);
}

async function open(url: string, certPem: string, token: string): Promise<Client> {
  const ws = new WebSocket(url.replace(/^https:/, 'wss:') + '/v1/stream', { ca: certPem });
  const client: Client = { ws, seq: 0, waiting: undefined };
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    counts.frames++;
    counts.lastFrameAt = performance.timeOrigin + performance.now();
    const seq = Number(SEQ.exec(text.length > 80 ? text.slice(0, 80) : text)?.[1]);
    if (seq !== ++client.seq) counts.seqErrors++;
    if (text.startsWith('{"channel"')) counts.events++;
    else if (client.waiting) {
      const w = client.waiting;
      client.waiting = undefined;
      w(text);
    }
  });
  ws.on('close', (code) => {
    counts.open--;
    counts.closes[code] = (counts.closes[code] ?? 0) + 1;
  });
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  counts.open++;
  await request(client, { op: 'login', token });
  return client;
}

function request(client: Client, frame: object): Promise<string> {
  return new Promise((resolve, reject) => {
    client.waiting = (text) => (text.includes('"op":"error"') ? reject(new Error(text)) : resolve(text));
    client.ws.send(JSON.stringify(frame));
  });
}

process.on('message', (command: LoadCommand) => {
  void (async () => {
    switch (command.type) {
      case 'connect': {
        const jobs = command.tokens.flatMap((token) =>
          Array.from({ length: command.perAccount }, () => token),
        );
        // A few handshakes at a time: TLS setup is the expensive part.
        for (let i = 0; i < jobs.length; i += 20) {
          const batch = await Promise.all(
            jobs.slice(i, i + 20).map((t) => open(command.url, command.certPem, t)),
          );
          clients.push(...batch);
        }
        send({ type: 'connected', sockets: clients.length });
        return;
      }
      case 'subscribe':
        await Promise.all(clients.map((c) => request(c, { op: 'subscribe', channels: command.channels })));
        send({ type: 'subscribed' });
        return;
      case 'count':
        send(counts);
        return;
      case 'close':
        for (const c of clients) c.ws.close();
        setTimeout(() => process.exit(0), 500).unref();
        return;
    }
  })().catch((err: unknown) => send({ type: 'error', message: String(err) }));
});
