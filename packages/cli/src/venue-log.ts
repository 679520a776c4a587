/**
 * The log of the venue process (`nightjar start`): one format for every line it writes, the
 * engine's pino records and its own alike. On stderr, so stdout carries only the command's result
 * (the ready banner, or its JSON). Pino's JSON lines when stderr is not a terminal; on a terminal
 * the same records drawn as `HH:MM:SS LEVEL [component] message key=value`. The lines of its child
 * processes (the app, the demo traders) come through here too, each named by its component.
 */
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { Readable } from 'node:stream';

/** Pino's level numbers. */
const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;
type Level = keyof typeof LEVELS;
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** A pino record drawn for a person: time, level, component, message, the other fields. */
export function prettyRecord(record: Record<string, unknown>): string {
  const { level, time, msg, component, pid: _pid, hostname: _host, ...rest } = record;
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '--:--:--';
  const name = LEVEL_NAMES[Number(level)] ?? String(level);
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${at} ${name.padEnd(5)} ${component ? `[${String(component)}] ` : ''}${String(msg ?? '')}${fields ? ` ${fields}` : ''}`;
}

export class VenueLog {
  /** What the engine's pino writes to (Fastify's `logger.stream`): drawn like every other line. */
  readonly stream: Writable;

  constructor(
    private readonly dest: NodeJS.WritableStream = process.stderr,
    private readonly pretty = (dest as { isTTY?: boolean }).isTTY === true,
    private readonly now: () => number = Date.now,
  ) {
    this.stream = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        for (const line of String(chunk).split('\n')) if (line) this.passRecord(line);
        done();
      },
    });
  }

  /** A JSON record (pino's) written as it is, or drawn on a terminal; any other text logged as `info`. */
  private passRecord(line: string): void {
    const record = parseRecord(line);
    if (!record) return this.log('info', {}, line);
    this.dest.write((this.pretty ? prettyRecord(record) : line) + '\n');
  }

  log(level: Level, fields: Record<string, unknown>, msg: string): void {
    const record = {
      level: LEVELS[level],
      time: this.now(),
      pid: process.pid,
      hostname: hostname(),
      ...fields,
      msg,
    };
    this.dest.write((this.pretty ? prettyRecord(record) : JSON.stringify(record)) + '\n');
  }

  info(fields: Record<string, unknown>, msg: string): void {
    this.log('info', fields, msg);
  }

  warn(fields: Record<string, unknown>, msg: string): void {
    this.log('warn', fields, msg);
  }

  /**
   * The lines of a child process's output as records of `component`: a pino record passes with its
   * level; the demo traders' `--json` lines (`{ text, ...fields }`) and plain text become records at
   * `level`.
   */
  follow(stream: Readable | null | undefined, component: string, level: Level): void {
    if (!stream) return;
    // readline also gives the last line when the stream ends without a newline.
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      if (line.trim()) this.childLine(component, level, line);
    });
  }

  private childLine(component: string, level: Level, line: string): void {
    const record = parseRecord(line);
    if (record && typeof record.level === 'number' && 'msg' in record)
      return void this.dest.write(
        (this.pretty ? prettyRecord({ component, ...record }) : JSON.stringify({ ...record, component })) +
          '\n',
      );
    if (record && typeof record.text === 'string') {
      const { text, ...fields } = record;
      return this.log(level, { component, ...fields }, text);
    }
    this.log(level, { component }, line);
  }
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
