/**
 * The app's tests against a venue in this process (cheap: the engine's test harness with its
 * in-process ledger and stand-in proofs, and the SDK's stand-in prover): `startAppVenue` starts the
 * venue with a clock that ticks by itself, `startTestApp` an app server on it, and `http`/`openWs`
 * talk to the app exactly as a browser or a bot would (every header under the test's control).
 * Tests that need a real venue process use `startAppProcess` of `@nightjar/testkit` instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Credentials, Prover } from '@nightjar/sdk';
import {
  createAppServer,
  type AppServer,
  type CreateAppServerOptions,
  type VenueConfig,
} from '../src/index.js';
import type { AppEvent } from '../src/api-types.js';

/**
 * The test kit's in-process venue and the SDK's stand-in prover, loaded at run time and seen
 * through the narrow views below (what the app's tests use of them).
 */
const loadTestkit = () => import('@nightjar/testkit');

/** What the app's tests use of the engine's `TestVenue`. */
export interface TestVenue {
  ledger: NonNullable<VenueConfig['ledger']>;
  engine: {
    url: string;
    port: number;
    bootSessionId: string;
    attestation: { identity: { compose_hash: string }; rootCa?: { der: Uint8Array } };
    /** The venue side of every stream socket (closing them all is how a test drops the stream). */
    context: { streamHub: { failAll(reason: string): void } };
    close(): Promise<void>;
  };
  admin: Credentials;
  newAccount(): Promise<{ credentials: Credentials }>;
  advance(slots: number): Promise<void>;
  close(): Promise<void>;
}

interface Harness {
  startTestVenue(options: { settle?: boolean; logger?: unknown; dataDir?: string }): Promise<TestVenue>;
  devCircuitKeys(): Promise<unknown>;
  stubVerifyInputProof: unknown;
  FAST_ARGON2: unknown;
}
interface EngineModule {
  startEngine(options: Record<string, unknown>): Promise<TestVenue['engine']>;
}
interface FastVenue {
  standInProver: Prover;
  FAST_SCRYPT: { N: number; r: number; p: number };
}
const loadFastVenue = async (): Promise<FastVenue> => await loadTestkit();

export interface AppVenue {
  v: TestVenue;
  /** Every request the engine received (path only), in order. */
  requests: string[];
  dir: string;
  /**
   * Stops the engine and starts it again on the same port, data directory (so the same platform
   * root, accounts and orders) and ledger: a new boot session and TLS key, after `downMs` with
   * nothing listening. Only with `restartable`.
   */
  restartEngine(downMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The engine's request log: each incoming request's path. */
function engineLog(requests: string[]) {
  const stream = {
    write(line: string) {
      const o = JSON.parse(line) as { msg?: string; req?: { url: string } };
      if (o.msg === 'incoming request' && o.req) requests.push(o.req.url.split('?')[0]!);
    },
  };
  return { level: 'info', stream } as never;
}

/**
 * A settling venue in process whose chain advances one slot every `tickMs` (so deposits become
 * final and matches settle without the test driving the clock).
 */
export async function startAppVenue(tickMs = 20, options: { restartable?: boolean } = {}): Promise<AppVenue> {
  const requests: string[] = [];
  const harness: Harness = (await loadTestkit()) as unknown as Harness;
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-app-'));
  const engineDir = options.restartable ? join(dir, 'engine') : undefined;
  const v = await harness.startTestVenue({
    settle: true,
    logger: engineLog(requests),
    ...(engineDir ? { dataDir: engineDir } : {}),
  });
  let running = true;
  const ticking = (async () => {
    while (running) {
      await v.advance(1).catch(() => undefined);
      await new Promise((r) => setTimeout(r, tickMs));
    }
  })();
  return {
    v,
    requests,
    dir,
    async restartEngine(downMs = 0) {
      if (!engineDir) throw new Error('startAppVenue({ restartable: true }) restarts its engine');
      const { startEngine } = (await import('@nightjar/engine')) as unknown as EngineModule;
      await v.engine.close();
      await new Promise((r) => setTimeout(r, downMs));
      v.engine = await startEngine({
        ledger: v.ledger,
        port: v.engine.port,
        dataDir: engineDir,
        dev: true,
        hasher: harness.FAST_ARGON2,
        verifyInputProof: harness.stubVerifyInputProof,
        circuitKeys: await harness.devCircuitKeys(),
        logger: engineLog(requests),
      });
    },
    async close() {
      running = false;
      await ticking;
      await v.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An app server on `venue` (its own state directory under the venue's temp dir). */
export async function startTestApp(
  venue: AppVenue,
  name: string,
  options: Partial<CreateAppServerOptions> & { composeHash?: string } = {},
): Promise<AppServer> {
  const { v } = venue;
  const { composeHash, ...rest } = options;
  const { standInProver, FAST_SCRYPT } = await loadFastVenue();
  return createAppServer({
    venue: {
      baseUrl: v.engine.url,
      ledger: v.ledger,
      composeHash: composeHash ?? v.engine.attestation.identity.compose_hash,
      pinnedRoot: v.engine.attestation.rootCa!.der,
      admin: v.admin,
      dev: true,
    },
    stateDir: join(venue.dir, name),
    port: 0,
    walletPassword: `pw-${name}`,
    walletScrypt: FAST_SCRYPT,
    prover: standInProver,
    ...rest,
  });
}

export interface HttpResult<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: T;
}

/** One HTTP request to the app with exactly these headers (Host defaults to the app's own). */
export function http<T = unknown>(
  app: { port: number },
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<HttpResult<T>> {
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    host: `127.0.0.1:${app.port}`,
    ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: app.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let body: unknown = undefined;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: body as T });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A bot's call: the API token as a bearer. */
export function bot<T = unknown>(app: AppServer, method: string, path: string, body?: unknown) {
  return http<T>(app, method, `/api/v1${path}`, {
    headers: { authorization: `Bearer ${app.apiToken}` },
    ...(body === undefined ? {} : { body }),
  });
}

/** Spends a one-time login URL as a browser does; returns the session cookie (`name=value`). */
export async function browserSession(app: AppServer): Promise<string> {
  const url = new URL(app.loginUrl());
  const res = await http(app, 'GET', url.pathname + url.search);
  const set = res.headers['set-cookie'];
  const cookie = (Array.isArray(set) ? set[0] : set)?.split(';')[0];
  if (res.status !== 303 || !cookie) throw new Error(`login failed: ${res.status}`);
  return cookie;
}

/** An open WebSocket to /api/v1/events and every frame it received. */
export interface EventSocket {
  ws: WebSocket;
  frames: AppEvent[];
  /** Resolves with the first frame (already received or to come) that `pred` accepts. */
  next(pred: (e: AppEvent) => boolean, timeoutMs?: number): Promise<AppEvent>;
  close(): void;
}

/** Opens the app's WebSocket with these headers; rejects with the refusal's status code. */
export function openWs(app: { port: number }, headers: Record<string, string>): Promise<EventSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.port}/api/v1/events`, { headers });
    const frames: AppEvent[] = [];
    const waiters: { pred: (e: AppEvent) => boolean; done: (e: AppEvent) => void }[] = [];
    ws.on('message', (data) => {
      const e = JSON.parse(String(data)) as AppEvent;
      frames.push(e);
      for (const w of [...waiters])
        if (w.pred(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done(e);
        }
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        frames,
        next(pred, timeoutMs = 30_000) {
          const seen = frames.find(pred);
          if (seen) return Promise.resolve(seen);
          return new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error('no such frame in time')), timeoutMs);
            waiters.push({
              pred,
              done: (e) => {
                clearTimeout(timer);
                res(e);
              },
            });
          });
        },
        close: () => ws.close(),
      }),
    );
  });
}

/** Polls `probe` until it returns a value (not undefined), or throws after `timeoutMs`. */
export async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
