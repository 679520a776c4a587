/**
 * A load generator in its own process (issue 28 item 9): READERS concurrent getLeaves readers, all
 * from source address FROM, asking for the largest page over and over. Prints `refused` once the
 * ledger first refuses one with -32008 (`unmetered` if it served 64 first), and on `stop` (stdin)
 * its counts as one JSON line.
 *
 *   node --conditions=nightjar-source --import tsx read-flood.ts URL FROM READERS
 */
import { request } from 'node:http';

const [url, from, readersArg] = process.argv.slice(2) as [string, string, string];
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'getLeaves',
  params: { tree_id: 0, from: 0, to: 1_000_000 },
});
const counts = { served: 0, refused: 0, other: 0 };
let stopping = false;
let saidRefused = false;

function read(): Promise<void> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json' }, agent: false },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const answer = JSON.parse(text) as { result?: unknown; error?: { code: number } };
          if (answer.result !== undefined) {
            // Unmetered (the ledger before issue 28 item 9): say so rather than flood forever.
            if (++counts.served === 64) process.stdout.write('unmetered\n');
          } else if (answer.error?.code === -32008) {
            counts.refused++;
            if (!saidRefused) process.stdout.write('refused\n');
            saidRefused = true;
          } else counts.other++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      // The server is gone: stop rather than spin.
      counts.other++;
      stopping = true;
      resolve();
    });
    req.end(body);
  });
}

async function reader(): Promise<void> {
  while (!stopping) await read();
}

process.stdin.on('data', (d) => {
  if (String(d).includes('stop')) stopping = true;
});
// The parent is gone (its end of the pipe closed): stop too.
process.stdin.on('end', () => (stopping = true));
await Promise.all(Array.from({ length: Number(readersArg) }, reader));
process.stdout.write(JSON.stringify(counts) + '\n');
process.exit(0);
