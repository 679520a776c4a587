/**
 * `nightjar status` as tables: the system status and the transparency snapshot as `key  value`
 * rows (nested objects as dotted keys, lists of values joined), and each list of records (the
 * shards, the mints) as a table of its own with a header row.
 */

type Row = [string, string];
interface Section {
  title: string;
  header?: string[];
  rows: string[][];
}

const scalar = (v: unknown): string =>
  v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `key  value` rows of `obj`, and a section for each list of records found in it. */
function flatten(obj: Record<string, unknown>, prefix: string, rows: Row[], tables: Section[]): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix + k;
    if (isRecord(v)) flatten(v, `${key}.`, rows, tables);
    else if (Array.isArray(v) && v.length > 0 && v.every(isRecord)) tables.push(recordTable(key, v));
    else if (Array.isArray(v)) rows.push([key, v.length === 0 ? '—' : v.map(scalar).join(', ')]);
    else rows.push([key, scalar(v)]);
  }
}

function recordTable(title: string, records: Record<string, unknown>[]): Section {
  const header = [...new Set(records.flatMap((r) => Object.keys(r)))];
  return { title, header, rows: records.map((r) => header.map((h) => scalar(r[h]))) };
}

/** Columns padded to their widest cell, two spaces apart, indented under the title. */
function render({ title, header, rows }: Section): string {
  const all = header ? [header, ...rows] : rows;
  const widths = all[0]?.map((_, i) => Math.max(...all.map((r) => r[i]?.length ?? 0))) ?? [];
  const line = (r: string[]) =>
    ('  ' + r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).trimEnd();
  return [title, ...all.map(line)].join('\n');
}

/** The text `nightjar status` prints for `/system/status` and `/transparency`. */
export function statusTable(system: Record<string, unknown>, transparency: Record<string, unknown>): string {
  const sections: Section[] = [];
  for (const [title, body] of [
    ['System status', system],
    ['Transparency', transparency],
  ] as const) {
    const rows: Row[] = [];
    const tables: Section[] = [];
    flatten(body, '', rows, tables);
    sections.push({ title, rows }, ...tables.map((t) => ({ ...t, title: `${title}: ${t.title}` })));
  }
  return sections.map(render).join('\n\n');
}
