/** The venue process's log (issue 32 item 9): one format for every line, its children's too. */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { prettyRecord, VenueLog } from '../src/venue-log.js';

function sink() {
  let text = '';
  const dest = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  const read = () => text.split('\n').filter(Boolean);
  return { dest, read };
}

describe('VenueLog', () => {
  it('without a terminal: its own lines, the engine pino records and child lines are all pino JSON', async () => {
    const { dest, read } = sink();
    const log = new VenueLog(dest, false, () => 1_700_000_000_000);
    log.info({}, 'SIGINT: shutting down');
    const engineRecord = { level: 40, time: 1, pid: 7, hostname: 'h', msg: 'prover backlog' };
    log.stream.write(JSON.stringify(engineRecord) + '\n');
    const demo = new PassThrough();
    const app = new PassThrough();
    log.follow(demo, 'demo-traders', 'info');
    log.follow(app, 'app', 'warn');
    demo.write('{"t_ms":12,"text":"FIRST fully_filled abc","trader":"t0"}\n{"t_ms":13,"te');
    demo.end('xt":"funded"}\n');
    app.end('SIGTERM: the app is shutting down\n');
    await new Promise((r) => setImmediate(r));
    const records = read().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(5);
    for (const r of records) {
      expect(typeof r.level).toBe('number');
      expect(typeof r.msg).toBe('string');
    }
    expect(records[0]).toMatchObject({ level: 30, time: 1_700_000_000_000, msg: 'SIGINT: shutting down' });
    expect(records[1]).toEqual(engineRecord);
    expect(records[2]).toMatchObject({
      level: 30,
      component: 'demo-traders',
      trader: 't0',
      t_ms: 12,
      msg: 'FIRST fully_filled abc',
    });
    expect(records[3]).toMatchObject({ component: 'demo-traders', msg: 'funded' });
    expect(records[4]).toMatchObject({
      level: 40,
      component: 'app',
      msg: 'SIGTERM: the app is shutting down',
    });
  });

  it('on a terminal: every record drawn the same way, none as raw JSON', async () => {
    const { dest, read } = sink();
    const log = new VenueLog(dest, true, () => Date.UTC(2026, 0, 1, 12, 34, 56));
    log.warn({ market: 'SOL-USDC' }, 'backlog');
    log.stream.write(JSON.stringify({ level: 50, time: Date.UTC(2026, 0, 1, 1, 2, 3), msg: 'boom' }) + '\n');
    const child = new PassThrough();
    log.follow(child, 'app', 'info');
    child.end('plain text\n');
    await new Promise((r) => setImmediate(r));
    expect(read()).toEqual([
      '12:34:56 WARN  backlog market=SOL-USDC',
      '01:02:03 ERROR boom',
      '12:34:56 INFO  [app] plain text',
    ]);
  });

  it('prettyRecord leaves out pid and hostname and shows other fields', () => {
    expect(prettyRecord({ level: 30, time: 0, pid: 1, hostname: 'h', msg: 'm', n: 2, s: 'x' })).toBe(
      '00:00:00 INFO  m n=2 s=x',
    );
  });
});
