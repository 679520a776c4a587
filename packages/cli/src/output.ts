/** Output of a command: human lines on stdout, or one JSON document with `--json`; progress on stderr. */
export class Output {
  /** `now`: the clock progress timers read (tests set it). */
  constructor(
    readonly json: boolean,
    private readonly now: () => number = Date.now,
  ) {}

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
   * `work` gets `stage`, which shows what it is doing now after the label: on a terminal with the
   * time that stage has run so far, and each stage ends as a line with its own duration (not the
   * time since the label began); without a terminal a stage is a line when it begins and one with
   * its duration when it ends.
   */
  async progress<T>(label: string, work: Promise<T> | ((stage: SetStage) => Promise<T>)): Promise<T> {
    if (this.json) return typeof work === 'function' ? work(() => undefined) : work;
    const timer = new StageTimer(label, process.stderr.isTTY === true, this.now);
    try {
      const value = await (typeof work === 'function' ? work((text) => timer.stage(text)) : work);
      timer.end('done');
      return value;
    } catch (err) {
      timer.end('failed');
      throw err;
    }
  }
}

/** The stderr lines of one `progress`: the running stage's own elapsed time, each stage's duration. */
class StageTimer {
  private readonly started: number;
  private current: { text: string; since: number } | undefined;
  private readonly redraw: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly label: string,
    private readonly tty: boolean,
    private readonly now: () => number,
  ) {
    this.started = now();
    this.redraw = tty ? setInterval(() => this.draw(), 200) : undefined;
  }

  private seconds(since: number): string {
    return ((this.now() - since) / 1000).toFixed(1);
  }

  /** Rewrites the terminal's last line (erasing the rest: the new text may be shorter). */
  private write(text: string, newline: boolean): void {
    process.stderr.write(this.tty ? `\r${text}${CLEAR_TO_EOL}${newline ? '\n' : ''}` : `${text}\n`);
  }

  private draw(): void {
    const c = this.current;
    this.write(
      c
        ? `${this.label}: ${c.text}… ${this.seconds(c.since)}s`
        : `${this.label}… ${this.seconds(this.started)}s`,
      false,
    );
  }

  /** Ends the running stage with a line of its duration. */
  private close(outcome: string): void {
    const c = this.current;
    if (!c) return;
    this.write(`${this.label}: ${c.text} ${outcome} ${this.seconds(c.since)}s`, true);
    this.current = undefined;
  }

  stage(text: string): void {
    if (text === this.current?.text) return;
    this.close('took');
    this.current = { text, since: this.now() };
    if (this.tty) this.draw();
    else this.write(`${this.label}: ${text}…`, true);
  }

  end(outcome: 'done' | 'failed'): void {
    if (this.redraw) clearInterval(this.redraw);
    this.close(outcome === 'done' ? 'took' : 'failed after');
    this.write(`${this.label}… ${outcome} (${this.seconds(this.started)}s in all)`, true);
  }
}

/** Sets the stage shown after a running step's label. */
export type SetStage = (text: string) => void;

const CLEAR_TO_EOL = '\x1b[K';

/** JSON with bigints as decimal strings. */
export function toJson(data: unknown): string {
  return JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
