/**
 * Client frames to operations. Every failure becomes an `error` frame with the REST code and
 * message and the socket stays usable: malformed JSON, unknown ops, bad fields, frames over 16 KiB
 * and binary frames all answer 1001. Only `ping` works before `login`. Order operations run the
 * very same intake as REST (its checks, codes and rate limit) and reply with the REST bodies.
 */
import {
  parseStreamRequest,
  STREAM_CHANNELS,
  VenueError,
  type LoginResult,
  type StreamRequest,
  type SubscriptionResult,
} from '@nightjar/protocol';
import type { AccountService } from '../accounts/account-service.js';
import type { Intake, OrderOperation } from '../orders/intake.js';
import type { RequestId } from './frames.js';
import type { StreamHub } from './hub.js';
import type { StreamLimits } from './options.js';
import type { StreamSession } from './session.js';

const ORDER_OPERATION = {
  'order.place': 'place',
  'order.cancel': 'cancel',
  'order.modify': 'modify',
} as const satisfies Record<string, OrderOperation>;
export interface DispatchDeps {
  accounts: AccountService;
  intake: Pick<Intake, 'admit' | 'place' | 'cancel' | 'modify' | 'cancelForSession'>;
  hub: StreamHub;
  limits: StreamLimits;
  log: { error(fields: object, message: string): void };
}

type Op<K extends StreamRequest['op']> = Extract<StreamRequest, { op: K }>;

export class FrameDispatcher {
  constructor(private readonly deps: DispatchDeps) {}

  /** One frame from the client. Never throws, never rejects. */
  async onFrame(session: StreamSession, data: Buffer, isBinary: boolean): Promise<void> {
    let requestId: RequestId;
    try {
      session.heard();
      if (!session.isLive) return;
      if (isBinary) return session.error(undefined, 1001, 'binary frames are not accepted; send JSON text');
      if (data.length > this.deps.limits.maxFrameBytes)
        return session.error(undefined, 1001, `frame larger than ${this.deps.limits.maxFrameBytes} bytes`);
      const parsed = parseStreamRequest(data.toString('utf8'));
      if (!parsed.ok) return session.error(parsed.request_id, parsed.code, parsed.message);
      requestId = parsed.value.request_id;
      await this.run(session, parsed.value);
    } catch (err) {
      this.fail(session, requestId, err);
    }
  }

  private async run(session: StreamSession, request: StreamRequest): Promise<void> {
    if (request.op === 'ping') return session.pong(request.request_id);
    if (request.op === 'login') return this.login(session, request);
    if (session.state !== 'authenticated' || !session.principal)
      return session.error(request.request_id, 1101, 'log in first (op: login)');
    // Every frame re-checks the token: expiry is exact even between timer ticks.
    try {
      session.principal = this.deps.accounts.revalidate(session.principal);
    } catch (err) {
      // The account store is unreachable: this request fails, the token stays good.
      if (err instanceof VenueError && err.code === 5001)
        return session.error(request.request_id, err.code, err.message);
      if (err instanceof VenueError) return session.endAuthentication(err);
      throw err;
    }
    switch (request.op) {
      case 'subscribe':
      case 'unsubscribe':
        return this.subscription(session, request);
      case 'logout':
        session.reply('logout', request.request_id, {});
        return session.close(1000, 'logged out');
      case 'order.place':
      case 'order.cancel':
      case 'order.modify':
        return this.orderOperation(session, request);
    }
  }

  private login(session: StreamSession, request: Op<'login'>): void {
    const principal = this.deps.accounts.authenticateToken(request.token);
    const current = session.principal;
    if (current) {
      if (principal.accountId !== current.accountId)
        return session.error(
          request.request_id,
          4030,
          'account switch attempted on an authenticated socket; open a new connection',
        );
      session.refresh(principal, request.cancel_on_disconnect);
    } else {
      if (this.deps.hub.accountSocketCount(principal.accountId) >= this.deps.limits.maxPerAccount)
        return session.error(
          request.request_id,
          4290,
          `account over its concurrent-socket limit (${this.deps.limits.maxPerAccount})`,
        );
      if (!this.deps.hub.hasRoomForLogin)
        return session.error(request.request_id, 5001, 'stream at capacity; retry shortly');
      const cancelOnDisconnect =
        request.cancel_on_disconnect ??
        this.deps.accounts.getSettings(principal.accountId).cancel_on_disconnect_default;
      this.deps.hub.bind(session, principal, cancelOnDisconnect);
    }
    const result: LoginResult = { account_id: principal.accountId, expires_at: principal.expiresAtMs };
    session.reply('login', request.request_id, result);
    session.warnIfExpiringSoon();
  }

  private subscription(session: StreamSession, request: Op<'subscribe' | 'unsubscribe'>): void {
    if (request.op === 'subscribe') this.deps.hub.subscribe(session, request.channels);
    else this.deps.hub.unsubscribe(session, request.channels);
    const result: SubscriptionResult = { channels: STREAM_CHANNELS.filter((c) => session.channels.has(c)) };
    session.reply(request.op, request.request_id, result);
  }

  private async orderOperation(
    session: StreamSession,
    request: Op<'order.place' | 'order.cancel' | 'order.modify'>,
  ): Promise<void> {
    const caller = { accountId: session.principal!.accountId };
    // The rate limit is the front door, as on REST: charged before any parsing or verification.
    await this.deps.intake.admit(caller, ORDER_OPERATION[request.op]);
    if (session.inFlight >= this.deps.limits.maxInFlightPerSession)
      return session.error(
        request.request_id,
        1401,
        `too many order operations in flight on this socket (${this.deps.limits.maxInFlightPerSession}); await replies`,
      );
    const tagged = session.cancelOnDisconnect;
    // A place or a modify's replacement booked here belongs to this session's cancel-on-disconnect.
    const placing = tagged ? { cancelOnDisconnectSession: session.id } : {};
    if (tagged && request.op !== 'order.cancel') session.hasTaggedOrders = true;
    session.inFlight++;
    try {
      let result: unknown;
      if (request.op === 'order.place') {
        result = await this.deps.intake.place(caller, request.params, placing);
      } else if (request.op === 'order.cancel') {
        result = await this.deps.intake.cancel(caller, request.order_id, request.params);
      } else {
        result = await this.deps.intake.modify(caller, request.order_id, request.params, placing);
      }
      session.reply(request.op, request.request_id, result);
    } finally {
      session.inFlight--;
      // Booked after the socket closed (the proof was still verifying): cancel-on-disconnect now.
      if (tagged && !session.isLive) this.deps.intake.cancelForSession(session.id);
    }
  }

  private fail(session: StreamSession, requestId: RequestId, err: unknown): void {
    if (err instanceof VenueError) return session.error(requestId, err.code, err.message);
    this.deps.log.error(
      { err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) },
      'stream operation failed',
    );
    session.error(requestId, 5000, 'internal error');
  }
}
