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

  /**
   * Runs `work` showing `label… Ns` on stderr until it ends (nothing with `--json`). A function
   * `work` gets `stage`, which shows what it is doing now after the label (`label: proving… 3.1s`);
   * without a terminal each new stage is a line of its own.
   */
  async progress<T>(label: string, work: Promise<T> | ((stage: SetStage) => Promise<T>)): Promise<T> {
    const started = Date.now();
    const tty = process.stderr.isTTY && !this.json;
    const elapsed = () => ((Date.now() - started) / 1000).toFixed(1);
    let current = '';
    // Erase to the end of the line: a stage's text may be longer than what replaces it.
    const end = tty ? CLEAR_TO_EOL : '';
    const draw = () =>
      process.stderr.write(`\r${label}${current ? `: ${current}` : ''}… ${elapsed()}s${end}`);
    const stage: SetStage = (text) => {
      if (this.json || text === current) return;
      current = text;
      if (tty) draw();
      else process.stderr.write(`${label}: ${text} (${elapsed()}s)\n`);
    };
    const timer = tty ? setInterval(draw, 200) : undefined;
    try {
      const value = await (typeof work === 'function' ? work(stage) : work);
      if (!this.json) process.stderr.write(`${tty ? '\r' : ''}${label}… done (${elapsed()}s)${end}\n`);
      return value;
    } catch (err) {
      if (!this.json) process.stderr.write(`${tty ? '\r' : ''}${label}… failed (${elapsed()}s)${end}\n`);
      throw err;
    } finally {
      if (timer) clearInterval(timer);
    }
  }
}

/** Sets the stage shown after a running step's label. */
export type SetStage = (text: string) => void;

const CLEAR_TO_EOL = '\x1b[K';

/** JSON with bigints as decimal strings. */
export function toJson(data: unknown): string {
  return JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
