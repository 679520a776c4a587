/**
 * Every error the front can raise, in the venue's vocabulary: one mapping from whatever threw
 * (a route's VenueError, a Fastify parser or router error, anything else) to a spec code, and one
 * way of sending it. The error handler and Fastify's `frameworkErrors` both end here.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PROVER_EVIDENCE_MAX_BYTES, stringifyJson, VenueError } from '@nightjar/protocol';
import { padReply } from '../wire/pad-response.js';

/** Largest request body: a modify (two orders' worth of hex) is about 3 KiB. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Longest path parameter the router matches: ids are 32 hex, api keys and symbols far shorter. */
export const MAX_PARAM_LENGTH = 128;

/** The venue error for anything thrown while answering a request; `undefined` means our fault (5000). */
export function venueErrorOf(err: unknown): VenueError | undefined {
  if (err instanceof VenueError) return err;
  const { code, statusCode } = (err ?? {}) as Partial<FastifyError>;
  switch (code) {
    // Raised by the router before any route or hook runs.
    case 'FST_ERR_BAD_URL':
      return new VenueError(1001, 'path is not a valid percent-encoded URL');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new VenueError(1001, `path parameter longer than ${MAX_PARAM_LENGTH} characters`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new VenueError(
        1000,
        `body larger than ${MAX_BODY_BYTES} bytes (prover evidence: ${PROVER_EVIDENCE_MAX_BYTES})`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new VenueError(1000, 'Content-Type must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new VenueError(1000, 'invalid body');
    default:
      // Any other framework refusal of the request itself is the client's doing, never a 5xx.
      if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500)
        return new VenueError(1000, 'bad request');
      return undefined;
  }
}

/**
 * Answers `err` with the `{code, message}` envelope. Also Fastify's `frameworkErrors` hook, which
 * it calls with a bare request and reply when routing itself fails (bad URL, overlong parameter).
 */
export function replyWithEnvelope(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  let venue = venueErrorOf(err);
  if (!venue) {
    const { message, stack } = err instanceof Error ? err : { message: String(err), stack: undefined };
    req.log.error({ err: { message, stack } }, 'unhandled error');
    venue = new VenueError(5000);
  }
  if (venue.retryAfterSeconds !== undefined)
    reply.header('retry-after', String(Math.max(1, Math.ceil(venue.retryAfterSeconds))));
  void reply.status(venue.status).type('application/json; charset=utf-8');
  // Padded here too: Fastify runs no hooks for the router's own failures (the `onSend` hook would
  // miss them); elsewhere the hook finds the body already on its bucket and leaves it.
  void reply.send(padReply(reply, stringifyJson(venue.toEnvelope()), reply.server.server));
}
