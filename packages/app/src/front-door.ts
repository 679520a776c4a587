/**
 * The app's Fastify instance and its front door: JSON bodies only, the app's error envelope, the
 * security headers, the Host and Origin check on every request, the session on every `/api/`
 * request, and the one-time login link redeemed at `GET /?token=T`.
 */
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { AppError, toAppError } from './errors.js';
import { toJson } from './json.js';
import { checkHostAndOrigin, cookieValue, SESSION_COOKIE, type Sessions } from './security.js';

/** Largest request body the API reads (the biggest request, an order ticket, is far smaller). */
export const BODY_LIMIT = 16 * 1024;

/** Request logs without the query string (the one-time token) or any header. */
const serializers = {
  req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
};

/**
 * A Fastify instance that takes JSON only and answers every failure with the app's envelope;
 * `onFailure` sees each unexpected error (the venue session counts them). `routes` lists every
 * route registered later, `METHOD /path`.
 */
export function createFastify(
  logger: FastifyServerOptions['logger'] | undefined,
  onFailure: (err: unknown) => void,
): { app: FastifyInstance; routes: string[] } {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: logger ? { ...(logger === true ? {} : logger), serializers } : false,
    // The Host check needs the header as sent.
    trustProxy: false,
  });
  // JSON only: a form post (text/plain, urlencoded) from another site is refused before any handler.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (a DELETE from a client that sets Content-Type on every request) is no body;
  // anything else goes through fastify's parser, which refuses __proto__ and constructor keys.
  const strictJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body.length === 0) done(null, undefined);
    else strictJson(req, body as string, done); // parseAs: 'string'
  });
  app.setReplySerializer((payload) => toJson(payload));
  app.decorateRequest('appSession', null);
  const routes: string[] = [];
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) if (m !== 'HEAD') routes.push(`${m} ${r.url}`);
  });
  app.setErrorHandler((err, _req, reply) => {
    const e = appErrorOf(err, onFailure);
    return reply.status(e.status).send(e.body());
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send(new AppError(404, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`).body()),
  );
  return { app, routes };
}

/** Fastify's own refusals (body too large, not JSON, a 4xx) in the app's codes; the rest by `toAppError`. */
function appErrorOf(err: unknown, onFailure: (err: unknown) => void): AppError {
  const fe = err as { statusCode?: number; code?: string };
  if (err instanceof AppError) return err;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new AppError(413, 'BODY_TOO_LARGE', `request bodies are limited to ${BODY_LIMIT} bytes`);
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'the API takes JSON bodies',
      'send Content-Type: application/json',
    );
  if (fe.statusCode !== undefined && fe.statusCode >= 400 && fe.statusCode < 500)
    return new AppError(fe.statusCode, 'BAD_REQUEST', err instanceof Error ? err.message : String(err));
  onFailure(err);
  return toAppError(err);
}

/** The security headers, the Host and Origin check, the session of `/api/` and the login link. */
export function installFrontDoor(app: FastifyInstance, sessions: Sessions, port: () => number): void {
  app.addHook('onRequest', async (req, reply) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    void reply.header('X-Frame-Options', 'DENY');
    void reply.header('Referrer-Policy', 'no-referrer');
    const refused = checkHostAndOrigin(req.headers, port());
    if (refused) throw new AppError(refused.status, refused.code, refused.message);
    const path = req.url.split('?')[0] ?? '';
    if (path === '/' && req.method === 'GET') return redeem(sessions, req, reply);
    if (path.startsWith('/api/')) {
      void reply.header('Cache-Control', 'no-store');
      req.appSession = sessions.authenticate(req.headers) ?? null;
      if (!req.appSession)
        throw new AppError(
          401,
          'UNAUTHORIZED',
          'no session: this API needs the session of the printed URL, or the bot token',
          'open the URL `nightjar app` printed (ready.json app_url), or send `Authorization: Bearer <the token in <data-dir>/app/api-token>`',
        );
    }
    return undefined;
  });
}

/** GET /?token=T: spends the one-time token, sets the session cookie and drops the token from the URL. */
async function redeem(sessions: Sessions, req: FastifyRequest, reply: FastifyReply) {
  const token = (req.query as Record<string, unknown> | undefined)?.token;
  if (typeof token !== 'string') return undefined;
  const session = sessions.redeem(token, cookieValue(req.headers.cookie, SESSION_COOKIE));
  if (!session)
    return reply
      .status(401)
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><title>Nightjar</title><p>This login link was already used or is not valid. ' +
          'Each link opens one session: run <code>nightjar app</code> again for a new one.</p>',
      );
  return reply.header('Set-Cookie', sessions.cookie(session)).redirect('/', 303);
}
