/**
 * The HTTPS agent of a ledger client: every connection it hands out has passed the client's TLS
 * check (the server's SubjectPublicKeyInfo hash is the pinned one, and/or its certificate chains
 * to the given CA) before the HTTP request or WebSocket upgrade is given the socket, so a server
 * that fails it never sees a byte of the request. Pinning is how a wallet trusts a ledger's
 * self-signed certificate (tls-identity.ts), the way the SDK pins the engine's.
 */
import { Agent, type AgentOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { spkiSha256Of } from '../index.js';
import { RPC_ERRORS, RpcError } from './errors.js';

export interface LedgerClientTls {
  /** SHA-256 (hex) of the ledger certificate's SubjectPublicKeyInfo (`LedgerServer.tlsSpkiSha256`). */
  spkiSha256?: string;
  /** A CA certificate (PEM) the ledger's certificate must chain to (its own, for a self-signed one). */
  ca?: string;
}

/** The ledger's TLS certificate failed the client's check: not the ledger it meant to reach. */
export class LedgerTlsError extends RpcError {
  constructor(message: string) {
    super(RPC_ERRORS.nodeUnavailable, message);
  }
}

const SPKI_PATTERN = /^[0-9a-f]{64}$/;

/** Checks the options' form (a pin of 64 hex digits); returns the pin lower-cased. */
export function checkClientTls(tls: LedgerClientTls): LedgerClientTls {
  const pin = tls.spkiSha256?.toLowerCase();
  if (pin !== undefined && !SPKI_PATTERN.test(pin))
    throw new TypeError('tls.spkiSha256 must be 64 hex digits (the SHA-256 of the certificate SPKI)');
  return {
    ...(pin === undefined ? {} : { spkiSha256: pin }),
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
  };
}

function spkiOf(socket: TLSSocket): string | undefined {
  const cert = socket.getPeerX509Certificate();
  return cert ? spkiSha256Of(cert) : undefined;
}

export class PinnedLedgerAgent extends Agent {
  constructor(
    private readonly tls: LedgerClientTls,
    options: AgentOptions = {},
  ) {
    super({ keepAlive: true, ...options });
  }

  /** Connects, checks, and only then hands the socket over (asynchronously, through `callback`). */
  override createConnection(
    options: ConnectionOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex {
    const pin = this.tls.spkiSha256;
    const socket = connect({
      ...options,
      ...(this.tls.ca === undefined ? {} : { ca: this.tls.ca }),
      // A pin alone trusts no CA: the pin is the check (made below, before any request byte).
      rejectUnauthorized: this.tls.ca !== undefined || pin === undefined,
    });
    let settled = false;
    const settle = (err: Error | null) => {
      if (settled) return;
      settled = true;
      if (err) socket.destroy();
      callback?.(err, socket);
    };
    socket.once('secureConnect', () => {
      const seen = spkiOf(socket);
      if (pin !== undefined && seen !== pin)
        settle(
          new LedgerTlsError(
            `ledger TLS certificate does not match the pinned SPKI SHA-256 (expected ${pin}, got ${seen ?? 'none'}): ` +
              'not the ledger this client trusts, or its certificate changed',
          ),
        );
      else settle(null);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      // A handshake refused by the CA check is a TLS failure too; a refused connection is not.
      const tlsFailure = typeof err.code === 'string' && /CERT|SELF_SIGNED|TLS|SSL|ERR_TLS/.test(err.code);
      settle(tlsFailure ? new LedgerTlsError(`ledger TLS certificate refused: ${err.message}`) : err);
    });
    return undefined as unknown as Duplex;
  }
}
