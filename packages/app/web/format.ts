/** Parsing and formatting helpers of the UI (pure, no DOM). */

/** "30s", "5m", "1h", "1h30m", "90" (seconds) → seconds; undefined when not a duration. */
export function parseDuration(input: string): number | undefined {
  const t = input.replace(/\s+/g, '').toLowerCase();
  if (!t) return undefined;
  if (/^\d+$/.test(t)) return Number(t);
  if (!/^(?:\d+(?:\.\d+)?[dhms])+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)([dhms])/g)) {
    const unit = m[2];
    total += Number(m[1]) * (unit === 'd' ? 86_400 : unit === 'h' ? 3_600 : unit === 'm' ? 60 : 1);
  }
  return Math.round(total);
}

export function formatDuration(s: number): string {
  if (s % 3600 === 0 && s >= 3600) return `${s / 3600}h`;
  if (s % 60 === 0 && s >= 60) return `${s / 60}m`;
  return `${s}s`;
}

/** A positive decimal in human units ("1", "0.25", "101.5"). */
export function isDecimal(text: string): boolean {
  return /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text.trim());
}

export function isPositiveDecimal(text: string): boolean {
  return isDecimal(text) && /[1-9]/.test(text);
}

/** Exact decimal → smallest units (truncation refused): undefined when too many decimals. */
export function toUnits(text: string, decimals: number): string | undefined {
  const t = text.trim();
  if (!isDecimal(t)) return undefined;
  const [whole = '0', frac = ''] = t.split('.');
  if (frac.length > decimals) return undefined;
  const units = BigInt((whole || '0') + frac.padEnd(decimals, '0'));
  return units.toString();
}

export function shortId(id: string, keep = 8): string {
  return id.length <= keep * 2 + 1 ? id : `${id.slice(0, keep)}…${id.slice(-4)}`;
}

export function formatTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A JSON value the venue may send as a number, a numeric string or a bigint-as-string. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return undefined;
}

export function text(v: unknown): string {
  if (v === undefined || v === null) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Smallest units (string or number) → human decimal string with `decimals` places trimmed. */
export function fromUnits(units: unknown, decimals: number): string {
  const s = typeof units === 'bigint' ? units.toString() : String(units ?? '');
  if (!/^-?\d+$/.test(s)) return text(units);
  const neg = s.startsWith('-');
  const digits = (neg ? s.slice(1) : s).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A random id for `client_ref` (echoed on the `progress` frames of that action). */
export function newRef(): string {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return `web-${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}
