/**
 * One `/v1/stream` connection: its state (unauthenticated → authenticated → closed), its
 * per-connection `seq`, its subscriptions and its deadlines. The session knows nothing of other
 * sessions; the hub indexes it and {@link SessionHooks} tell the hub when it ends.
 *
 * Deadlines, all on the injectable clock: `login` within 10 s of opening (absolute); `auth_expired`
 * 60 s before the token expires; the close at expiry itself (re-armed if a timer fires early, so
 * never before); a drop after more than 60 s without any frame from the client (transport pings
 * count).
 */
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  STREAM_CLOSE_CODES,
  VenueError,
  type ErrorFrame,
  type ReplyFrame,
  type StreamChannel,
} from '@nightjar/protocol';
import type { Principal } from '../accounts/account-service.js';
import type { StreamClock } from './clock.js';
import { CloseHandshake } from './close-handshake.js';
import { authExpiredFrame, errorFrame, eventFrame, pongFrame, replyFrame, type RequestId } from './frames.js';
import type { StreamLimits } from './options.js';
import { Outbox } from './outbox.js';

export type SessionState = 'unauthenticated' | 'authenticated' | 'closed';

export interface SessionHooks {
  /** The session stopped being live (any close, either side); called once, before the socket is gone. */
  ended(session: StreamSession): void;
  /** The socket itself is closed (it no longer counts against the venue's socket cap). */
  socketGone(session: StreamSession): void;
}

export interface SessionDeps {
  clock: StreamClock;
  limits: StreamLimits;
  hooks: SessionHooks;
  onFrameSent?: (latencyMs: number) => void;
}

export class StreamSession {
  /** Identifies the session to intake (cancel-on-disconnect); never sent anywhere. */
  readonly id = randomBytes(16).toString('hex');
  readonly openedAt: number;
  state: SessionState = 'unauthenticated';
  principal: Principal | undefined;
  /** Orders placed from now on are cancelled when the socket closes. */
  cancelOnDisconnect = false;
  /** Some order was booked with this session's cancel-on-disconnect tag (so closing must look). */
  hasTaggedOrders = false;
  readonly channels = new Set<StreamChannel>();
  /** Order operations awaiting intake. */
  inFlight = 0;
  closeCode: number | undefined;
  /** Closed because the backlog overflowed (a slow consumer). */
  backlogOverflowed = false;
  private seq = 0;
  private lastHeardAt: number;
  private readonly outbox: Outbox;
  private cancelLoginDeadline: (() => void) | undefined;
  private cancelIdleCheck: (() => void) | undefined;
  private cancelExpiryWarning: (() => void) | undefined;
  private cancelExpiry: (() => void) | undefined;
  private socketClosed = false;
  private readonly closing: CloseHandshake;

  constructor(
    private readonly ws: WebSocket,
    socket: Duplex,
    private readonly deps: SessionDeps,
  ) {
    this.openedAt = deps.clock.now();
    this.lastHeardAt = this.openedAt;
    this.outbox = new Outbox(ws, socket, deps.limits.bufferLimit, deps.onFrameSent);
    this.closing = new CloseHandshake(ws, socket, deps.clock, deps.limits, () => this.lastHeardAt);
    this.cancelLoginDeadline = deps.clock.at(this.openedAt + deps.limits.loginDeadlineMs, () => {
      if (this.state === 'unauthenticated') this.close(STREAM_CLOSE_CODES.timeout, 'no login within 10 s');
    });
    this.armIdleCheck();
  }

  get isLive(): boolean {
    return this.state !== 'closed';
  }

  get backlog(): number {
    return this.outbox.backlog;
  }

  /** Any frame from the client, transport pings included, resets the silence deadline. */
  heard(): void {
    this.lastHeardAt = this.deps.clock.now();
  }

  // ------------------------------------------------------------------ frames out

  reply(op: ReplyFrame['op'], requestId: RequestId, result: unknown): void {
    this.send((seq) => replyFrame(op, seq, requestId, result));
  }

  pong(requestId: RequestId): void {
    this.send((seq) => pongFrame(seq, requestId));
  }

  error(requestId: RequestId, code: ErrorFrame['code'], message: string): void {
    this.send((seq) => errorFrame(seq, requestId, code, message));
  }

  /** One channel event; `tail` is shared by every recipient (see frames.ts). */
  pushEvent(channel: StreamChannel, tail: string, emittedAt: number): void {
    if (this.state !== 'authenticated') return;
    this.send((seq) => eventFrame(channel, seq, tail), emittedAt);
  }

  private send(build: (seq: number) => string, emittedAt?: number): void {
    if (this.state === 'closed') return;
    if (!this.outbox.push(build(++this.seq), emittedAt)) {
      this.backlogOverflowed = true;
      this.close(STREAM_CLOSE_CODES.eventsMissed, 'consumer too slow: frame backlog over the limit');
    }
  }

  // ------------------------------------------------------------------ authentication

  /** First successful `login`. */
  authenticate(principal: Principal, cancelOnDisconnect: boolean): void {
    this.state = 'authenticated';
    this.principal = principal;
    this.cancelOnDisconnect = cancelOnDisconnect;
    this.cancelLoginDeadline?.();
    this.cancelLoginDeadline = undefined;
    this.armTokenDeadlines();
  }

  /** A later `login` of the same account: a fresh token; an explicit flag changes cancel-on-disconnect for later orders. */
  refresh(principal: Principal, cancelOnDisconnect: boolean | undefined): void {
    this.principal = principal;
    if (cancelOnDisconnect !== undefined) this.cancelOnDisconnect = cancelOnDisconnect;
    this.armTokenDeadlines();
  }

  /**
   * The token stopped being valid (expired, revoked, invalidated, account suspended): an `error`
   * frame with the REST code, then the close: 4403 for a suspension, 4401 otherwise.
   */
  endAuthentication(err: VenueError): void {
    if (this.state === 'closed') return;
    this.error(undefined, err.code, err.message);
    this.close(
      err.code === 1150 ? STREAM_CLOSE_CODES.suspended : STREAM_CLOSE_CODES.tokenInvalid,
      err.code === 1150 ? 'account suspended' : 'token no longer valid',
    );
  }

  /** Sends the expiry warning now (after the reply to the `login` that armed it) if it is already due. */
  warnIfExpiringSoon(): void {
    const expiresAt = this.principal?.expiresAtMs;
    if (expiresAt === undefined || this.cancelExpiryWarning !== undefined) return;
    if (this.deps.clock.now() >= expiresAt - this.deps.limits.authExpiredLeadMs)
      this.send((seq) => authExpiredFrame(seq, expiresAt));
  }

  private armTokenDeadlines(): void {
    this.cancelExpiryWarning?.();
    this.cancelExpiry?.();
    this.cancelExpiryWarning = undefined;
    const expiresAt = this.principal!.expiresAtMs;
    const warnAt = expiresAt - this.deps.limits.authExpiredLeadMs;
    if (this.deps.clock.now() < warnAt)
      this.cancelExpiryWarning = this.deps.clock.at(warnAt, () => {
        this.send((seq) => authExpiredFrame(seq, expiresAt));
      });
    const atExpiry = (): void => {
      if (this.deps.clock.now() < expiresAt) {
        this.cancelExpiry = this.deps.clock.at(expiresAt, atExpiry);
        return;
      }
      this.endAuthentication(new VenueError(1101, 'token expired'));
    };
    this.cancelExpiry = this.deps.clock.at(expiresAt, atExpiry);
  }

  private armIdleCheck(): void {
    const limit = this.deps.limits.idleDropMs;
    this.cancelIdleCheck = this.deps.clock.at(this.lastHeardAt + limit + 1, () => {
      if (this.state === 'closed') return;
      if (this.deps.clock.now() - this.lastHeardAt > limit)
        this.close(STREAM_CLOSE_CODES.timeout, 'silent for more than 60 s');
      else this.armIdleCheck();
    });
  }

  // ------------------------------------------------------------------ closing

  /**
   * Ends the session now (the hub detaches it and runs cancel-on-disconnect at once) and starts the
   * close handshake. A 1011 close drops the backlog; any other close first hands it to the socket,
   * so an `error` frame always precedes its close. The close frame follows what the socket already
   * holds, even for a reader that paused (see {@link CloseHandshake}).
   */
  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    if (code === STREAM_CLOSE_CODES.eventsMissed) this.outbox.close();
    else this.outbox.flushAll();
    this.end(code);
    if (this.socketClosed) return;
    this.closing.start(code, reason);
  }

  /** Destroys the socket without a close handshake (shutdown of a peer that does not answer). */
  terminate(): void {
    this.end(STREAM_CLOSE_CODES.goingAway);
    if (!this.socketClosed) this.ws.terminate();
  }

  /** The socket closed (either side, or the connection dropped). */
  socketClosedEvent(code: number): void {
    this.socketClosed = true;
    this.closing.stop();
    this.end(code);
    this.deps.hooks.socketGone(this);
  }

  private end(code: number): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeCode = code;
    this.outbox.close();
    for (const cancel of [
      this.cancelLoginDeadline,
      this.cancelIdleCheck,
      this.cancelExpiryWarning,
      this.cancelExpiry,
    ])
      cancel?.();
    this.deps.hooks.ended(this);
  }
}
