/**
 * The HTTPS front: one Fastify instance with the venue's conventions applied everywhere:
 * `x-request-id` on every response, the `{code, message}` envelope for every error (malformed
 * JSON, wrong content type, oversized bodies, unknown routes included), exact u64 JSON both ways.
 */
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { JsonSyntaxError, parseJsonExact, stringifyJson, VenueError } from '@nightjar/protocol';
import type { BootCertificate } from '../tls.js';

/** Largest request body: a modify (two orders' worth of hex) is about 3 KiB. */
export const MAX_BODY_BYTES = 16 * 1024;

export interface HttpServerOptions {
  certificate: BootCertificate;
  /** Fastify's request log records method, URL and status only: never bodies or headers. */
  logger?: FastifyServerOptions['logger'];
}

export function buildHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    https: { key: options.certificate.keyPem, cert: options.certificate.certPem },
    bodyLimit: MAX_BODY_BYTES,
    genReqId: () => randomBytes(12).toString('hex'),
    logger: options.logger ?? false,
    // Paths are matched exactly; `/orders/` is not `/orders`.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 128 },
    return503OnClosing: true,
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
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

  app.setErrorHandler((err: FastifyError | VenueError, req, reply) => {
    if (err instanceof VenueError) {
      if (err.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
      return reply.status(err.status).send(err.toEnvelope());
    }
    const mapped = mapFrameworkError(err);
    if (mapped) return reply.status(mapped.status).send(mapped.toEnvelope());
    req.log.error({ err: { message: err.message, stack: err.stack } }, 'unhandled error');
    const internal = new VenueError(5000);
    return reply.status(internal.status).send(internal.toEnvelope());
  });
  app.setNotFoundHandler((_req, reply) => {
    const e = new VenueError(1301, 'no such route');
    void reply.status(e.status).send(e.toEnvelope());
  });
  return app;
}

/** Fastify's own errors (parsing, limits, content type) in the venue's vocabulary. */
function mapFrameworkError(err: FastifyError): VenueError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new VenueError(1000, `body larger than ${MAX_BODY_BYTES} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new VenueError(1000, 'Content-Type must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new VenueError(1000, 'invalid body');
    default:
      if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
        return new VenueError(1000, 'bad request');
      return undefined;
  }
}
