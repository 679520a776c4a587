/**
 * The HTTPS front: one Fastify instance with the venue's conventions applied everywhere:
 * `x-request-id` on every response, the `{code, message}` envelope for every error (malformed
 * JSON, wrong content type, oversized bodies, unknown routes, bad URLs, overlong path parameters,
 * bytes that are not HTTP), exact u64 JSON both ways.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { JsonSyntaxError, parseJsonExact, stringifyJson, VenueError } from '@nightjar/protocol';
import type { BootCertificate } from '../tls.js';
import { MAX_BODY_BYTES, MAX_PARAM_LENGTH, replyWithEnvelope } from './envelope.js';
import { answerClientError, framingError, requestIdOf, wireRawServer } from './front-door.js';
import { padResponseHook } from '../wire/pad-response.js';

export { MAX_BODY_BYTES } from './envelope.js';

export interface HttpServerOptions {
  certificate: BootCertificate;
  /**
   * A socket that sends nothing for this many ms is closed (default 30 s), so a client that
   * promises a longer body than it sends cannot hold a socket forever (Node's request timeout
   * stops counting once the headers are in). Upgraded WebSockets clear it and keep their own.
   */
  idleTimeoutMs?: number;
  /** Fastify's request log records method, URL and status only: never bodies or headers. */
  logger?: FastifyServerOptions['logger'];
}

const SERVED = new WeakMap<FastifyInstance, string[]>();

/** Every route `app` serves, as Fastify registered it: `GET /orders/:order_id`, `HEAD /health`. */
export function servedRoutes(app: FastifyInstance): string[] {
  return [...(SERVED.get(app) ?? [])];
}

export function buildHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    https: {
      key: options.certificate.keyPem,
      cert: options.certificate.certPem,
      // Else Node answers a missing Host with a bare 400 before Fastify; `framingError` refuses it.
      requireHostHeader: false,
    },
    connectionTimeout: options.idleTimeoutMs ?? 30_000,
    bodyLimit: MAX_BODY_BYTES,
    genReqId: requestIdOf,
    logger: options.logger ?? false,
    // Paths are matched exactly; `/orders/` is not `/orders`.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    // Routing failures (bad percent-encoding, overlong parameters) run no hooks and no error handler.
    frameworkErrors: replyWithEnvelope,
    clientErrorHandler: answerClientError,
    // Fastify's own 503 while closing has its body, not ours; `closing` below answers instead.
    return503OnClosing: false,
  });
  wireRawServer(app.server);
  const served: string[] = [];
  SERVED.set(app, served);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.push(`${method} ${route.url}`);
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (req) => {
    if (closing) throw new VenueError(5001, 'the venue is shutting down');
    const framing = framingError(req.raw);
    if (framing) throw framing;
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(null, undefined);
    try {
      done(null, parseJsonExact(text));
    } catch (err) {
      if (err instanceof JsonSyntaxError)
        return done(new VenueError(1001, 'body is not valid JSON'), undefined);
      done(err as Error, undefined);
    }
  });
  app.setReplySerializer((payload) => stringifyJson(payload));
  // Every response lands on a size bucket (issue 30, item 5); see wire/pad-response.ts.
  app.addHook('onSend', padResponseHook(app.server));

  app.setErrorHandler(replyWithEnvelope);
  app.setNotFoundHandler((_req, reply) => {
    const e = new VenueError(1301, 'no such route');
    void reply.status(e.status).send(e.toEnvelope());
  });
  return app;
}
