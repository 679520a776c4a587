/** `nightjar status`: system status and transparency (public routes) as a table. */
import { connectPublic } from '../connect.js';
import type { Command } from '../command.js';
import { engineLayout, engineLines } from '../engine-layout.js';
import { statusTable } from '../status-table.js';
import { venueError } from '@nightjar/sdk';

async function get(t: ReturnType<typeof connectPublic>['transport'], path: string): Promise<unknown> {
  const res = await t.request(path);
  if (res.status !== 200) {
    const body = res.body as { code?: unknown; message?: unknown } | undefined;
    throw venueError(Number(body?.code ?? 0), res.status, String(body?.message ?? res.text));
  }
  return res.body;
}

export const status: Command = {
  name: 'status',
  summary: 'system status and transparency of the venue',
  usage: `nightjar status

  Reads /system/status and /transparency over a verified transport (no login needed) and prints
  them as tables (the shards and the mints each as a table of their own); --json prints both bodies.
  With markets on several engines, also which engine serves which market (--json: "engines").`,
  options: {},
  async run({ out, paths }) {
    const pub = connectPublic(paths);
    try {
      const system = (await get(pub.transport, '/system/status')) as Record<string, unknown>;
      const transparency = (await get(pub.transport, '/transparency')) as Record<string, unknown>;
      const instruments = (await get(pub.transport, '/instruments')) as {
        symbol: string;
        base_url?: string;
      }[];
      const engines = engineLayout(instruments, pub.baseUrl);
      const text = [statusTable(system, transparency), ...engineLines(engines)].join('\n');
      out.result({ system, transparency, ...(engines.length > 1 ? { engines } : {}) }, text);
      return 0;
    } finally {
      await pub.close();
    }
  },
};
