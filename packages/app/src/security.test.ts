import { describe, expect, it } from 'vitest';
import { Sessions, SESSION_COOKIE, type Session } from './security.js';

const headers = (s: Session) => ({ cookie: `${SESSION_COOKIE}=${s.id}` });

describe('Sessions', () => {
  it('keeps at most maxSessions: a new login ends the least recently used, and says so', () => {
    let now = 1_000;
    const ended: string[] = [];
    const sessions = new Sessions(
      'bot-token',
      undefined,
      { idleMs: 60_000, maxAgeMs: 600_000, maxSessions: 2 },
      () => now,
      (s) => ended.push(s.id),
    );
    const login = () => sessions.redeem(sessions.newLoginToken())!;
    const a = login();
    now += 1;
    const b = login();
    now += 1;
    expect(sessions.authenticate(headers(a))).toBeDefined(); // a is now the more recent
    const c = login();
    expect(ended).toEqual([b.id]);
    expect(sessions.authenticate(headers(b))).toBeUndefined();
    expect(sessions.authenticate(headers(a))?.id).toBe(a.id);
    expect(sessions.authenticate(headers(c))?.id).toBe(c.id);
  });

  it('sweep ends idle sessions without a request; the bot token never expires', () => {
    let now = 0;
    const ended: Session[] = [];
    const sessions = new Sessions(
      'bot-token',
      undefined,
      { idleMs: 1_000, maxAgeMs: 10_000, maxSessions: 8 },
      () => now,
      (s) => ended.push(s),
    );
    const s = sessions.redeem(sessions.newLoginToken())!;
    now += 999;
    expect(sessions.sweep()).toBe(0);
    now += 1;
    expect(sessions.sweep()).toBe(1);
    expect(ended.map((e) => e.id)).toEqual([s.id]);
    now += 1_000_000;
    expect(sessions.authenticate({ authorization: 'Bearer bot-token' })?.kind).toBe('bot');
  });

  it('rotate gives a new id and retires the old one', () => {
    const sessions = new Sessions('bot-token');
    const s = sessions.redeem(sessions.newLoginToken())!;
    const r = sessions.rotate(s);
    expect(r.id).not.toBe(s.id);
    expect(sessions.authenticate(headers(s))).toBeUndefined();
    expect(sessions.authenticate(headers(r))?.id).toBe(r.id);
  });
});
