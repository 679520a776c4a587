/**
 * Every open `/v1/stream` socket and who it belongs to: the sockets not logged in yet (their own
 * budget, per address and in total, shared between addresses when full: anonymous-budget.ts),
 * logged-in sockets venue-wide (the upgrade and `login` refuse past the cap) and by account (the 4290 cap), live sessions by account (routing of `orders` and
 * `fills`), the `tree` subscribers. It also acts on account changes at once (revocation,
 * invalidation, suspension), runs cancel-on-disconnect when a session ends, and closes every live
 * session with 1011 when the fan-out reports a loss.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { STREAM_CLOSE_CODES, VenueError, type StreamChannel } from '@nightjar/protocol';
import type { AccountEvent, AccountService, Principal } from '../accounts/account-service.js';
import { addressKey } from '../limits/address-limiter.js';
import type { Intake } from '../orders/intake.js';
import { AnonymousBudget, type AnonymousAdmission } from './anonymous-budget.js';
import type { StreamClock } from './clock.js';
import type { StreamLimits } from './options.js';
import { StreamSession } from './session.js';

export interface StreamHubDeps {
  accounts: AccountService;
  intake: Pick<Intake, 'cancelForSession'>;
  limits: StreamLimits;
  clock: StreamClock;
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void };
  onFrameSent?: (latencyMs: number) => void;
}

/** Seconds a refused upgrade should wait before trying again. */
export const FULL_VENUE_RETRY_AFTER_S = 2;

export interface StreamStats {
  sockets: number;
  /** Sockets that logged in and are still open (a closing one too, until it is gone). */
  authenticated: number;
  /** Sockets not logged in yet (their own budget). */
  anonymous: number;
  treeSubscribers: number;
  /** Sessions closed because their backlog overflowed. */
  slowConsumerCloses: number;
  /** Times a fan-out loss closed every live session. */
  fanoutLosses: number;
  /** Upgrades refused by a cap (authenticated, anonymous in total or per address). */
  refusedUpgrades: number;
  /** Sockets waiting to log in that were closed (4408) to give their slot to a new connection. */
  anonymousEvictions: number;
}

function refusedWhy(admission: AnonymousAdmission<unknown>): 'address' | 'total' | undefined {
  return admission.kind === 'refused' ? admission.why : undefined;
}

export class StreamHub {
  private readonly sockets = new Set<StreamSession>();
  private readonly byAccount = new Map<string, Set<StreamSession>>();
  /**
   * Sockets that logged in, by account, until the socket is gone: a session that ended may keep its
   * socket a while for the close frame, and it counts against the caps until then.
   */
  private readonly loggedIn = new Map<StreamSession, string>();
  private readonly loggedInByAccount = new Map<string, number>();
  /** Sockets not logged in yet, by the address each counts under. */
  private readonly anonymous: AnonymousBudget<StreamSession>;
  readonly treeSubscribers = new Set<StreamSession>();
  private readonly offAccounts: () => void;
  private readonly onSocketsGone = new Set<() => void>();
  private stopping = false;
  private slowConsumerCloses = 0;
  private fanoutLosses = 0;
  private anonymousEvictions = 0;
  refusedUpgrades = 0;

  constructor(private readonly deps: StreamHubDeps) {
    this.anonymous = new AnonymousBudget(deps.limits.maxAnonymousSockets, deps.limits.maxAnonymousPerAddress);
    this.offAccounts = deps.accounts.onChange((event) => this.onAccountEvent(event));
  }

  get limits(): StreamLimits {
    return this.deps.limits;
  }

  /** Why an upgrade from `remoteAddress` is refused (counted in `refusedUpgrades`), or undefined. */
  upgradeRefusal(remoteAddress: string | undefined): VenueError | undefined {
    if (this.stopping) return new VenueError(5001, 'the engine is stopping');
    const { maxSockets, maxAnonymousSockets, maxAnonymousPerAddress } = this.deps.limits;
    const retry = { retryAfterSeconds: FULL_VENUE_RETRY_AFTER_S };
    let refusal: VenueError | undefined;
    if (!this.hasRoomForLogin)
      refusal = new VenueError(5001, `stream at capacity (${maxSockets} sockets); retry shortly`, retry);
    else
      switch (refusedWhy(this.anonymousAdmission(remoteAddress))) {
        case 'address':
          refusal = new VenueError(
            1401,
            `too many sockets from this address waiting to log in (${maxAnonymousPerAddress}); log in on those first`,
            retry,
          );
          break;
        case 'total':
          refusal = new VenueError(
            5001,
            `stream at capacity (${maxAnonymousSockets} sockets waiting to log in); retry shortly`,
            retry,
          );
      }
    if (refusal) this.refusedUpgrades++;
    return refusal;
  }

  private anonymousAdmission(remoteAddress: string | undefined): AnonymousAdmission<StreamSession> {
    const staleBefore = this.deps.clock.now() - this.deps.limits.loginDeadlineMs;
    return this.anonymous.admission(addressKey(remoteAddress), staleBefore);
  }

  /** Is there room under the venue's authenticated cap for one more login? */
  get hasRoomForLogin(): boolean {
    return this.loggedIn.size < this.deps.limits.maxSockets;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  /** A freshly upgraded socket (admitted by {@link StreamHub.upgradeRefusal} in the same turn). */
  open(ws: WebSocket, socket: Duplex, remoteAddress: string | undefined): StreamSession {
    const session = new StreamSession(ws, socket, {
      clock: this.deps.clock,
      limits: this.deps.limits,
      ...(this.deps.onFrameSent ? { onFrameSent: this.deps.onFrameSent } : {}),
      hooks: {
        ended: (s) => this.ended(s),
        socketGone: (s) => {
          this.anonymous.remove(s);
          this.leaveLoggedIn(s);
          this.sockets.delete(s);
          if (this.sockets.size === 0) for (const resolve of this.onSocketsGone) resolve();
        },
      },
    });
    this.sockets.add(session);
    // Admitted in this same turn: the budget fits it now or once the socket it names gives way.
    const admission = this.anonymousAdmission(remoteAddress);
    if (admission.kind === 'evict') this.evict(admission.victim);
    this.anonymous.add(session, addressKey(remoteAddress), session.openedAt);
    return session;
  }

  /** A socket waiting to log in gives its slot to a new connection (anonymous-budget.ts says which). */
  private evict(victim: StreamSession): void {
    this.anonymousEvictions++;
    this.anonymous.remove(victim);
    // One already closing (past its login window) is not waited for any longer.
    if (victim.isLive)
      victim.close(STREAM_CLOSE_CODES.timeout, 'no login yet: slot given to a new connection');
    else victim.terminate();
  }

  private leaveLoggedIn(session: StreamSession): void {
    const accountId = this.loggedIn.get(session);
    if (accountId === undefined) return;
    this.loggedIn.delete(session);
    const n = this.loggedInByAccount.get(accountId)!;
    if (n <= 1) this.loggedInByAccount.delete(accountId);
    else this.loggedInByAccount.set(accountId, n - 1);
  }

  /** The account's logged-in sockets still open (the 4290 cap). */
  accountSocketCount(accountId: string): number {
    return this.loggedInByAccount.get(accountId) ?? 0;
  }

  sessionsOf(accountId: string): ReadonlySet<StreamSession> | undefined {
    return this.byAccount.get(accountId);
  }

  /** A session's first successful `login`. */
  bind(session: StreamSession, principal: Principal, cancelOnDisconnect: boolean): void {
    this.anonymous.remove(session);
    this.loggedIn.set(session, principal.accountId);
    this.loggedInByAccount.set(principal.accountId, this.accountSocketCount(principal.accountId) + 1);
    session.authenticate(principal, cancelOnDisconnect);
    let set = this.byAccount.get(principal.accountId);
    if (!set) this.byAccount.set(principal.accountId, (set = new Set()));
    set.add(session);
  }

  subscribe(session: StreamSession, channels: readonly StreamChannel[]): void {
    for (const c of channels) session.channels.add(c);
    if (session.channels.has('tree')) this.treeSubscribers.add(session);
  }

  unsubscribe(session: StreamSession, channels: readonly StreamChannel[]): void {
    for (const c of channels) session.channels.delete(c);
    if (!session.channels.has('tree')) this.treeSubscribers.delete(session);
  }

  /** Events were lost between the bus and the sockets: every live session closes with 1011. */
  failAll(reason: string): void {
    this.fanoutLosses++;
    this.deps.log.warn({ sessions: this.sockets.size }, `stream fan-out loss: ${reason}`);
    for (const session of [...this.sockets]) session.close(STREAM_CLOSE_CODES.eventsMissed, 'events missed');
  }

  /** Every `tree` subscriber closes with 1011 (a shard was rebuilt without per-leaf events). */
  failTreeSubscribers(reason: string): void {
    for (const session of [...this.treeSubscribers]) session.close(STREAM_CLOSE_CODES.eventsMissed, reason);
  }

  stats(): StreamStats {
    return {
      sockets: this.sockets.size,
      authenticated: this.loggedIn.size,
      anonymous: this.anonymous.size,
      treeSubscribers: this.treeSubscribers.size,
      slowConsumerCloses: this.slowConsumerCloses,
      fanoutLosses: this.fanoutLosses,
      refusedUpgrades: this.refusedUpgrades,
      anonymousEvictions: this.anonymousEvictions,
    };
  }

  /** Engine shutdown: refuses new sockets, closes every session with 1001, waits briefly for the handshakes. */
  async close(waitMs = 1_000): Promise<void> {
    this.stopping = true;
    this.offAccounts();
    const sessions = [...this.sockets];
    for (const session of sessions) session.close(STREAM_CLOSE_CODES.goingAway, 'engine stopping');
    if (this.sockets.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      let done: (() => void) | undefined;
      await new Promise<void>((resolve) => {
        done = resolve;
        this.onSocketsGone.add(resolve);
        timer = setTimeout(resolve, waitMs);
      });
      clearTimeout(timer);
      if (done) this.onSocketsGone.delete(done);
    }
    for (const session of this.sockets) session.terminate();
  }

  private ended(session: StreamSession): void {
    if (session.backlogOverflowed) this.slowConsumerCloses++;
    this.treeSubscribers.delete(session);
    const accountId = session.principal?.accountId;
    if (accountId !== undefined) {
      const set = this.byAccount.get(accountId);
      set?.delete(session);
      if (set?.size === 0) this.byAccount.delete(accountId);
    }
    // After detaching, so the `cancelled` events reach the account's other sessions only.
    if (session.hasTaggedOrders) {
      try {
        this.deps.intake.cancelForSession(session.id);
      } catch (err) {
        this.deps.log.error(
          { err: err instanceof Error ? err.message : String(err) },
          'cancel-on-disconnect failed',
        );
      }
    }
  }

  private onAccountEvent(event: AccountEvent): void {
    if (event.type === 'enabled') return;
    const sessions = this.byAccount.get(event.accountId);
    if (!sessions) return;
    for (const session of [...sessions]) {
      try {
        session.principal = this.deps.accounts.revalidate(session.principal!);
      } catch (err) {
        if (err instanceof VenueError && err.code === 5001) continue; // store unreachable, token good
        if (err instanceof VenueError) session.endAuthentication(err);
        else session.close(STREAM_CLOSE_CODES.tokenInvalid, 'token no longer valid');
      }
    }
  }
}
