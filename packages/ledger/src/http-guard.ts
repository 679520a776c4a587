/**
 * Which HTTP requests may reach the ledger's JSON-RPC and event socket at all, judged from the
 * headers before any body is read: a browser must not be able to drive a ledger it can reach (a
 * web page posting `text/plain`, or a DNS name rebound to 127.0.0.1). So: the Host must name this
 * server (loopback names and the bound address, plus configured ones), any Origin header must be
 * allowed explicitly (none is by default), and a POST must say `application/json` (which a browser
 * never sends cross-site without a CORS preflight, and the ledger answers no preflight).
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface HttpGuardOptions {
  /** Host names (without port) this server answers besides the loopback names and the bound address. */
  allowedHosts?: readonly string[];
  /** Origins (`scheme://host[:port]`) whose requests are served; by default none. */
  allowedOrigins?: readonly string[];
}

export interface Refusal {
  status: 403 | 415;
  message: string;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
/** Addresses a server may bind that name no host a client could write in a Host header. */
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]']);

/** The host part of a Host header (`name[:port]`, `[v6][:port]`), lower case; undefined if malformed. */
function hostName(header: string): string | undefined {
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

/** As written in a Host header: an IPv6 address in brackets. */
function asHostName(address: string): string {
  const lower = address.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

export class HttpGuard {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(boundHost: string, options: HttpGuardOptions = {}) {
    const bound = asHostName(boundHost);
    this.hosts = new Set([
      ...LOOPBACK_NAMES,
      ...(WILDCARD_ADDRESSES.has(bound) ? [] : [bound]),
      ...(options.allowedHosts ?? []).map(asHostName),
    ]);
    this.origins = new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase()));
  }

  /** Host and Origin: for every request, the event socket's upgrade included. */
  checkSource(headers: IncomingHttpHeaders): Refusal | undefined {
    const host = headers.host === undefined ? undefined : hostName(headers.host);
    if (host === undefined || !this.hosts.has(host))
      return { status: 403, message: 'Host is not one this ledger serves' };
    const origin = headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase()))
      return { status: 403, message: 'cross-origin requests are refused' };
    return undefined;
  }

  /** A JSON-RPC POST: its source, then its content type (`application/json`, parameters allowed). */
  checkPost(headers: IncomingHttpHeaders): Refusal | undefined {
    const refusal = this.checkSource(headers);
    if (refusal) return refusal;
    const type = headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return { status: 415, message: 'Content-Type must be application/json' };
    return undefined;
  }
}
