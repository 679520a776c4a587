/**
 * The app's front door (DESIGN 10, issue 20 item 1). It listens on 127.0.0.1 only and:
 * - refuses a request whose Host is not exactly `127.0.0.1:<port>` or `localhost:<port>` (a DNS
 *   rebinding page reaches 127.0.0.1 under its own name, and its Host says so);
 * - refuses a request carrying an Origin other than `http://127.0.0.1:<port>` or
 *   `http://localhost:<port>` (a cross-site page), the WebSocket upgrade included;
 * - hands out a session only for a one-time token (the printed URL's `?token=`), as an HttpOnly,
 *   SameSite=Strict cookie; every API call and the upgrade need that session, or the bot API token
 *   as `Authorization: Bearer`.
 * Tokens are compared in constant time (over their SHA-256, so lengths never leak either).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const SESSION_COOKIE = 'nightjar_session';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time equality of two secrets (any lengths). */
export function secretEquals(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** What a request's Host and Origin are allowed to be. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export type FrontDoorRefusal = { status: 403; code: 'FORBIDDEN_HOST' | 'FORBIDDEN_ORIGIN'; message: string };

/** Why the headers of a request (or upgrade) are refused, if they are. */
export function checkHostAndOrigin(headers: IncomingHttpHeaders, port: number): FrontDoorRefusal | undefined {
  const hosts = allowedHosts(port);
  const host = headers.host;
  if (typeof host !== 'string' || !hosts.includes(host))
    return {
      status: 403,
      code: 'FORBIDDEN_HOST',
      message: `Host ${JSON.stringify(host ?? '')} is not this app's address; open http://127.0.0.1:${port}/ (no other name is served, against DNS rebinding)`,
    };
  const origin = headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`))
    return {
      status: 403,
      code: 'FORBIDDEN_ORIGIN',
      message: `requests from origin ${JSON.stringify(origin)} are refused: only this app's own page (http://127.0.0.1:${port}) may call its API`,
    };
  return undefined;
}

/** Reads one cookie from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The bearer token of an Authorization header, if any. */
export function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1];
}

/** One browser session (or the bot's): what the operator logged in, per session. */
export interface Session {
  id: string;
  kind: 'browser' | 'bot';
  createdAt: number;
  /** The last request (or upgrade) it authenticated; the idle timeout counts from here. */
  lastSeenAt: number;
}

/** How long a browser session lives. The bot's token has no session to expire (revoke it by file). */
export interface SessionPolicy {
  /** A session unused this long ends (default 30 minutes). */
  idleMs: number;
  /** A session ends this long after its login, however busy (default 12 hours). */
  maxAgeMs: number;
  /** At most this many browser sessions at once; a new login ends the least recently used. */
  maxSessions: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleMs: 30 * 60_000,
  maxAgeMs: 12 * 3600_000,
  maxSessions: 64,
};

/** One-time login tokens and the sessions they became. */
export class Sessions {
  /** SHA-256 of each login token not used yet, and when it expires. */
  private readonly pending = new Map<string, number>();
  private readonly sessions = new Map<string, Session>();
  private readonly bot: Session;

  constructor(
    private readonly apiToken: string,
    private readonly loginTokenTtlMs = 24 * 3600_000,
    private readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
    private readonly now: () => number = Date.now,
    /** Told of every browser session that ends (logout, idle, age, rotation, eviction). */
    private readonly onEnd: (session: Session) => void = () => undefined,
  ) {
    this.bot = { id: 'bot', kind: 'bot', createdAt: now(), lastSeenAt: now() };
  }

  /** A new one-time login token (for the printed URL). */
  newLoginToken(): string {
    const token = randomBytes(24).toString('base64url');
    this.pending.set(digest(token).toString('hex'), this.now() + this.loginTokenTtlMs);
    return token;
  }

  /**
   * Spends a login token: a new session, or undefined (unknown, used or expired). A session the
   * browser already held (`previous`, its cookie) ends: a login always gets a fresh cookie.
   */
  redeem(token: string, previous?: string): Session | undefined {
    const d = digest(token);
    let found: string | undefined;
    const now = this.now();
    // Every pending token is compared, in constant time each.
    for (const [key, expires] of this.pending) {
      if (expires < now) this.pending.delete(key);
      else if (timingSafeEqual(Buffer.from(key, 'hex'), d)) found = key;
    }
    if (!found) return undefined;
    this.pending.delete(found);
    const held = previous === undefined ? undefined : this.find(previous);
    if (held) this.end(held.id);
    return this.open(now);
  }

  /**
   * The same browser session under a new id (its old cookie stops working): at a change of
   * privilege, so a cookie seen before the operator's login is worth nothing after it.
   */
  rotate(session: Session): Session {
    if (session.kind === 'bot') return session;
    this.sessions.delete(session.id);
    const fresh: Session = { ...session, id: randomBytes(32).toString('base64url') };
    this.sessions.set(fresh.id, fresh);
    return fresh;
  }

  /** Ends a browser session (logout); the bot's cannot be ended here. */
  end(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.onEnd(session);
  }

  /** Ends every session past its idle timeout or its age; returns how many ended. */
  sweep(): number {
    const now = this.now();
    let ended = 0;
    for (const s of [...this.sessions.values()])
      if (this.expired(s, now)) {
        this.end(s.id);
        ended++;
      }
    return ended;
  }

  /** The session of a request: its cookie, or the bot token as a bearer. Counts as activity. */
  authenticate(headers: IncomingHttpHeaders): Session | undefined {
    const bearer = bearerOf(headers.authorization);
    if (bearer !== undefined) return secretEquals(bearer, this.apiToken) ? this.bot : undefined;
    const cookie = cookieValue(headers.cookie, SESSION_COOKIE);
    if (cookie === undefined) return undefined;
    const found = this.find(cookie);
    if (!found) return undefined;
    const now = this.now();
    if (this.expired(found, now)) {
      this.end(found.id);
      return undefined;
    }
    found.lastSeenAt = now;
    return found;
  }

  /** The Set-Cookie value of a session; it lives no longer than the session may. */
  cookie(session: Session): string {
    const maxAge = Math.max(0, Math.floor((session.createdAt + this.policy.maxAgeMs - this.now()) / 1000));
    return `${SESSION_COOKIE}=${session.id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}`;
  }

  /** The Set-Cookie value that makes a browser forget its session cookie. */
  static clearedCookie(): string {
    return `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }

  private open(now: number): Session {
    this.sweep();
    while (this.sessions.size >= this.policy.maxSessions) {
      let oldest: Session | undefined;
      for (const s of this.sessions.values()) if (!oldest || s.lastSeenAt < oldest.lastSeenAt) oldest = s;
      this.end(oldest!.id);
    }
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      kind: 'browser',
      createdAt: now,
      lastSeenAt: now,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session a cookie names, compared in constant time against every live one. */
  private find(cookie: string): Session | undefined {
    let found: Session | undefined;
    for (const s of this.sessions.values()) if (secretEquals(cookie, s.id)) found = s;
    return found;
  }

  private expired(s: Session, now: number): boolean {
    return now - s.lastSeenAt >= this.policy.idleMs || now - s.createdAt >= this.policy.maxAgeMs;
  }
}
