/**
 * A fake dstack guest agent on a Unix socket, speaking the RPCs `@phala/dstack-sdk` calls
 * (`/Info`, `/GetQuote`, `/GetKey`). Its quotes come from a simulated TD, so they are real DCAP
 * quotes (under the simulated root, not Intel's). A real CVM cannot run on a development machine.
 */
import { createServer } from 'node:http';
import type { SimulatedPlatform } from '@nightjar/engine';

export async function startFakeDstackAgent(socketPath: string, td: SimulatedPlatform) {
  const calls: string[] = [];
  /** The `{path, purpose}` of each `/GetKey` request. */
  const keyRequests: { path: string; purpose: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push(req.url ?? '');
      const send = (o: unknown) => {
        const text = JSON.stringify(o);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      if (req.url === '/Info')
        send({
          app_id: td.appId,
          instance_id: td.instanceId,
          compose_hash: td.composeHash,
          app_cert: '',
          tcb_info: JSON.stringify({ event_log: [] }),
          app_name: 'nightjar',
          device_id: '00',
          key_provider_info: '',
        });
      else if (req.url === '/GetQuote') {
        const { report_data } = JSON.parse(body) as { report_data: string };
        void td
          .quote(Buffer.from(report_data, 'hex'))
          .then((q) =>
            send({ quote: Buffer.from(q.quote).toString('hex'), event_log: JSON.stringify(q.eventLog) }),
          );
      } else if (req.url === '/GetKey') {
        const { path, purpose } = JSON.parse(body) as { path: string; purpose: string };
        keyRequests.push({ path, purpose });
        send({ key: Buffer.from(path.padEnd(32, '.')).toString('hex'), signature_chain: [] });
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  return { calls, keyRequests, close: () => new Promise<void>((r) => server.close(() => r())) };
}
