/** The venue's own bodies, read defensively: an object or nothing, and its plain fields as key/value pairs. */
import { text } from './format.js';

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The fields of `data` that are not objects, as a definition list (`skip` left out). */
export function KeyValues({ data, skip = [] }: { data: Obj; skip?: string[] }) {
  const entries = Object.entries(data).filter(
    ([k, v]) => !skip.includes(k) && (typeof v !== 'object' || v === null),
  );
  if (entries.length === 0) return null;
  return (
    <dl class="kv">
      {entries.map(([k, v]) => (
        <div key={k} class="kv-pair">
          <dt>{k.replace(/_/g, ' ')}</dt>
          <dd>{text(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
