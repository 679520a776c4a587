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
}

/** One-time login tokens and the sessions they became. */
export class Sessions {
  /** SHA-256 of each login token not used yet, and when it expires. */
  private readonly pending = new Map<string, number>();
  private readonly sessions: Session[] = [];
  private readonly bot: Session = { id: 'bot', kind: 'bot', createdAt: Date.now() };

  constructor(
    private readonly apiToken: string,
    private readonly loginTokenTtlMs = 24 * 3600_000,
  ) {}

  /** A new one-time login token (for the printed URL). */
  newLoginToken(): string {
    const token = randomBytes(24).toString('base64url');
    this.pending.set(digest(token).toString('hex'), Date.now() + this.loginTokenTtlMs);
    return token;
  }

  /** Spends a login token: a new session, or undefined (unknown, used or expired). */
  redeem(token: string): Session | undefined {
    const d = digest(token);
    let found: string | undefined;
    const now = Date.now();
    // Every pending token is compared, in constant time each.
    for (const [key, expires] of this.pending) {
      if (expires < now) this.pending.delete(key);
      else if (timingSafeEqual(Buffer.from(key, 'hex'), d)) found = key;
    }
    if (!found) return undefined;
    this.pending.delete(found);
    const session: Session = { id: randomBytes(32).toString('base64url'), kind: 'browser', createdAt: now };
    this.sessions.push(session);
    return session;
  }

  /** The session of a request: its cookie, or the bot token as a bearer. */
  authenticate(headers: IncomingHttpHeaders): Session | undefined {
    const bearer = bearerOf(headers.authorization);
    if (bearer !== undefined) return secretEquals(bearer, this.apiToken) ? this.bot : undefined;
    const cookie = cookieValue(headers.cookie, SESSION_COOKIE);
    if (cookie === undefined) return undefined;
    let found: Session | undefined;
    for (const s of this.sessions) if (secretEquals(cookie, s.id)) found = s;
    return found;
  }

  /** The Set-Cookie value of a session. */
  static cookie(session: Session): string {
    return `${SESSION_COOKIE}=${session.id}; HttpOnly; SameSite=Strict; Path=/`;
  }
}
