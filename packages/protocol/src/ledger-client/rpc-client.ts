/**
 * A LedgerClient over JSON-RPC: the same interface as the in-process ledger, generated from the
 * method table. `http://` for a ledger on loopback; `https://` (and its `wss://` event socket) with
 * a pinned certificate for one on another machine (tls-agent.ts).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import WebSocket from 'ws';
import { RPC_ERRORS, RpcError } from './errors.js';
import {
  DEV_SECRET_HEADER,
  isDevOnly,
  LEDGER_METHODS,
  wireName,
  type DevLedgerClient,
  type LedgerMethodName,
  type LedgerMethods,
} from './methods.js';
import { checkClientTls, LedgerTlsError, PinnedLedgerAgent, type LedgerClientTls } from './tls-agent.js';
import type { LedgerEvent } from './types.js';

export { LedgerTlsError, type LedgerClientTls } from './tls-agent.js';

export interface RpcLedgerClientOptions {
  timeoutMs?: number;
  devSecret?: string;
  /**
   * For an `https://` URL: the ledger certificate's SPKI SHA-256 to pin, and/or a CA (PEM) it
   * must chain to. Without it an `https://` ledger needs a certificate a system CA vouches for.
   */
  tls?: LedgerClientTls;
}

/**
 * The most a ledger answer may hold (a full `getMemos` page is about 6 MB): a node that streams
 * more is cut off rather than allowed to fill the client's memory.
 */
export const MAX_RPC_RESPONSE_BYTES = 32 * 1024 * 1024;

const MIN_RECONNECT_MS = 100;
const MAX_RECONNECT_MS = 5000;
/** A call refused for its address's read budget (-32008) is sent again after these waits. */
const RATE_LIMITED_RETRY_MS = [100, 200, 400, 800, 1600, 3200];

/** One JSON-RPC call per entry of the method table, on the prototype, sent through `call`. */
abstract class TableMethods {
  protected abstract call<T>(method: string, params?: object, devOnly?: boolean): Promise<T>;

  static {
    for (const name of Object.keys(LEDGER_METHODS) as LedgerMethodName[]) {
      const wire = wireName(name);
      const devOnly = isDevOnly(name);
      Object.defineProperty(this.prototype, name, {
        value(this: TableMethods, params: object = {}) {
          return this.call(wire, params, devOnly);
        },
        writable: true,
        configurable: true,
      });
    }
  }
}
const RpcMethods = TableMethods as unknown as abstract new () => TableMethods & LedgerMethods;

export class RpcLedgerClient extends RpcMethods implements DevLedgerClient {
  private nextId = 1;
  private socket: WebSocket | undefined;
  private socketReady: Promise<void> | undefined;
  private readonly listeners = new Set<(event: LedgerEvent) => void>();
  private closed = false;
  private interrupted = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs = MIN_RECONNECT_MS;

  /** Connections over TLS (an `https://` URL only), each checked before it carries a request. */
  private readonly agent: PinnedLedgerAgent | undefined;
  /**
   * The event socket's own connection, never a pooled one: a keep-alive pool unrefs its idle
   * sockets, and a subscription must keep the process alive as a plain WebSocket does.
   */
  private readonly eventsAgent: PinnedLedgerAgent | undefined;

  /**
   * `devSecret`: the dev ledger's secret (its `<dataDir>/dev-secret`, or `LedgerServer.devSecret`),
   * sent with dev-only calls (`dev_*`, `requestAirdrop`) only; without it the ledger refuses them.
   * `tls`: how an `https://` ledger is trusted (see {@link RpcLedgerClientOptions}). An `http://`
   * URL to another machine is allowed (the caller's choice) but shows every read to the path.
   */
  constructor(
    readonly url: string,
    private readonly options: RpcLedgerClientOptions = {},
  ) {
    super();
    const secure = /^https:/i.test(url);
    if (options.tls && !secure) throw new TypeError(`tls options need an https:// ledger URL, not ${url}`);
    const tls = checkClientTls(options.tls ?? {});
    this.agent = secure ? new PinnedLedgerAgent(tls) : undefined;
    this.eventsAgent = secure ? new PinnedLedgerAgent(tls, { keepAlive: false }) : undefined;
  }

  /**
   * Sends one call. Refused for the address's read budget (-32008), it is sent again a little later
   * (the budget refills within a second or two), at most six times.
   */
  protected async call<T>(method: string, params: object = {}, devOnly = false): Promise<T> {
    for (const wait of RATE_LIMITED_RETRY_MS) {
      try {
        return await this.callOnce<T>(method, params, devOnly);
      } catch (err) {
        if (!(err instanceof RpcError) || err.code !== RPC_ERRORS.rateLimited || this.closed) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return this.callOnce<T>(method, params, devOnly);
  }

  private async callOnce<T>(method: string, params: object, devOnly: boolean): Promise<T> {
    if (this.closed) throw new RpcError(RPC_ERRORS.nodeUnavailable, 'client is closed');
    const secret = devOnly ? this.options.devSecret : undefined;
    const headers = {
      'content-type': 'application/json',
      ...(secret === undefined ? {} : { [DEV_SECRET_HEADER]: secret }),
    };
    const payload = JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params });
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    let response: { status: number; text: string };
    try {
      response = await postJson(this.url, this.agent, headers, payload, signal);
    } catch (err) {
      if (err instanceof LedgerTlsError) throw err;
      throw new RpcError(
        RPC_ERRORS.nodeUnavailable,
        `ledger unreachable: ${err instanceof Error ? err.message : 'network error'}`,
      );
    }
    let body: { result?: T; error?: { code: number; message: string } };
    try {
      body = JSON.parse(response.text) as typeof body;
    } catch {
      throw new RpcError(RPC_ERRORS.internal, `ledger answered HTTP ${response.status} without JSON-RPC`);
    }
    if (body.error) throw new RpcError(body.error.code, body.error.message);
    return body.result as T;
  }

  /** Opens the event socket on first use; resolves once it is connected. */
  connectEvents(): Promise<void> {
    if (this.socketReady) return this.socketReady;
    const wsUrl = this.url.replace(/^http/, 'ws').replace(/\/?$/, '/ws');
    const socket = new WebSocket(wsUrl, {
      maxPayload: 1024 * 1024,
      ...(this.eventsAgent ? { agent: this.eventsAgent } : {}),
    });
    this.socket = socket;
    const ready = new Promise<void>((resolve, reject) => {
      socket.once('open', () => {
        this.reconnectDelayMs = MIN_RECONNECT_MS;
        // After an interruption, tell subscribers that events may have been missed.
        if (this.interrupted) {
          this.interrupted = false;
          this.deliver({ type: 'resync' });
        }
        resolve();
      });
      socket.once('error', (err) =>
        reject(new RpcError(RPC_ERRORS.nodeUnavailable, `event socket failed: ${err.message}`)),
      );
    });
    this.socketReady = ready;
    ready.catch(() => undefined);
    socket.on('message', (data) => {
      let event: LedgerEvent;
      try {
        event = JSON.parse(String(data)) as LedgerEvent;
      } catch {
        return;
      }
      this.deliver(event);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) {
        this.socket = undefined;
        this.socketReady = undefined;
      }
      if (!this.closed && this.listeners.size > 0) this.scheduleReconnect();
    });
    return ready;
  }

  /** Reconnects the event socket with exponential backoff until it opens or the client closes. */
  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    this.interrupted = true;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(MAX_RECONNECT_MS, this.reconnectDelayMs * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed) return;
      void this.connectEvents().catch(() => undefined);
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private deliver(event: LedgerEvent): void {
    for (const l of this.listeners) l(event);
  }

  subscribe(listener: (event: LedgerEvent) => void): () => void {
    this.listeners.add(listener);
    void this.connectEvents().catch(() => undefined);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.terminate();
    this.agent?.destroy();
    this.eventsAgent?.destroy();
  }
}

/**
 * One JSON-RPC POST: over `agent` (the pinned TLS agent) for an `https://` ledger, Node's default
 * agent for `http://`. The body as text, whatever the status; refused past
 * {@link MAX_RPC_RESPONSE_BYTES}.
 */
function postJson(
  url: string,
  agent: PinnedLedgerAgent | undefined,
  headers: Record<string, string>,
  payload: string,
  signal: AbortSignal,
): Promise<{ status: number; text: string }> {
  const request = agent ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ...(agent ? { agent } : {}),
        signal,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(payload)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RPC_RESPONSE_BYTES)
            res.destroy(new Error(`ledger answer over ${MAX_RPC_RESPONSE_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
