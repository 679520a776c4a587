/** `nightjar status`: system status and transparency (public routes) as a table. */
import { connectPublic } from '../connect.js';
import type { Command } from '../command.js';
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
  them as tables (the shards and the mints each as a table of their own); --json prints both bodies.`,
  options: {},
  async run({ out, paths }) {
    const pub = connectPublic(paths);
    try {
      const system = (await get(pub.transport, '/system/status')) as Record<string, unknown>;
      const transparency = (await get(pub.transport, '/transparency')) as Record<string, unknown>;
      out.result({ system, transparency }, statusTable(system, transparency));
      return 0;
    } finally {
      await pub.close();
    }
  },
};
