/**
 * The raw HTTPS server beneath Fastify. Some responses are written before any Fastify hook runs
 * (the router's bad-URL and parameter-length answers), so the venue's conventions are applied
 * here, where every request passes: each request is stamped with its `x-request-id` the moment
 * Node parses it.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

const requestIds = new WeakMap<IncomingMessage, string>();

function newRequestId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * Fastify's `genReqId`: the id the request was stamped with, so `req.id` and the header agree.
 * (`inject()` bypasses the server; it gets a fresh id and no header.)
 */
export function requestIdOf(raw: IncomingMessage): string {
  return requestIds.get(raw) ?? newRequestId();
}

/** Stamps every request ahead of Fastify's listener. */
export function wireRawServer(server: Server): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const id = newRequestId();
    requestIds.set(req, id);
    // Headers set on the raw response survive Fastify's writeHead and its direct writes alike.
    res.setHeader('x-request-id', id);
  });
}
