/** Output of a command: human lines on stdout, or one JSON document with `--json`; progress on stderr. */
export class Output {
  constructor(readonly json: boolean) {}

  /** Prints the result: `human` text normally, `data` as JSON with `--json`. */
  result(data: unknown, human: string): void {
    if (this.json) process.stdout.write(toJson(data) + '\n');
    else process.stdout.write(human.endsWith('\n') ? human : human + '\n');
  }

  /** One line of a stream (`watch`): JSON lines with `--json`. */
  line(data: unknown, human: string): void {
    process.stdout.write((this.json ? toJson(data) : human) + '\n');
  }

  /** A note for the human on stderr (suppressed with `--json`). */
  info(text: string): void {
    if (!this.json) process.stderr.write(text + '\n');
  }

  /** Runs `work` showing `label… Ns` on stderr until it ends (nothing with `--json`). */
  async progress<T>(label: string, work: Promise<T> | (() => Promise<T>)): Promise<T> {
    const started = Date.now();
    const tty = process.stderr.isTTY && !this.json;
    const elapsed = () => ((Date.now() - started) / 1000).toFixed(1);
    const timer = tty ? setInterval(() => process.stderr.write(`\r${label}… ${elapsed()}s`), 200) : undefined;
    try {
      const value = await (typeof work === 'function' ? work() : work);
      if (!this.json) process.stderr.write(`${tty ? '\r' : ''}${label}… done (${elapsed()}s)\n`);
      return value;
    } catch (err) {
      if (!this.json) process.stderr.write(`${tty ? '\r' : ''}${label}… failed (${elapsed()}s)\n`);
      throw err;
    } finally {
      if (timer) clearInterval(timer);
    }
  }
}

/** JSON with bigints as decimal strings. */
export function toJson(data: unknown): string {
  return JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
