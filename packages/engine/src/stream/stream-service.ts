/**
 * `/v1/stream`, wired: the hub (sessions and caps), the dispatcher (frames to operations), the
 * feed from the engine's event bus (bus sequence checked) and the HTTP upgrade. engine.ts creates
 * one per boot; `ctx.streamHub` is the hub.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { AccountService } from '../accounts/account-service.js';
import type { VenueEventBus } from '../event-bus.js';
import type { Intake } from '../orders/intake.js';
import { systemClock } from './clock.js';
import { FrameDispatcher } from './dispatch.js';
import { EventFeed } from './event-feed.js';
import { routeBusEvent } from './fanout.js';
import { StreamHub } from './hub.js';
import { resolveStreamLimits, type StreamOptions } from './options.js';
import { attachStreamUpgrade } from './upgrade.js';

export interface StreamServiceDeps {
  accounts: AccountService;
  intake: Pick<Intake, 'admit' | 'place' | 'cancel' | 'modify' | 'cancelForSession'>;
  events: VenueEventBus;
  /** The engine's wall clock (token expiry); deadlines use `options.clock` or real timers against it. */
  now: () => number;
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void };
  options?: StreamOptions;
}

export class StreamService {
  readonly hub: StreamHub;
  readonly feed: EventFeed;
  private readonly dispatcher: FrameDispatcher;
  private detach: (() => void) | undefined;

  constructor(private readonly deps: StreamServiceDeps) {
    const limits = resolveStreamLimits(deps.options);
    const onFrameSent = deps.options?.onFrameSent;
    this.hub = new StreamHub({
      accounts: deps.accounts,
      intake: deps.intake,
      limits,
      clock: deps.options?.clock ?? systemClock(deps.now),
      log: deps.log,
      ...(onFrameSent ? { onFrameSent } : {}),
    });
    this.dispatcher = new FrameDispatcher({
      accounts: deps.accounts,
      intake: deps.intake,
      hub: this.hub,
      limits,
      log: deps.log,
    });
    this.feed = new EventFeed(
      deps.events,
      limits.feedCapacity,
      (event) => routeBusEvent(this.hub, event),
      (reason) => this.hub.failAll(reason),
    );
  }

  /** Starts answering upgrades on the engine's HTTPS server. */
  listen(server: Server): void {
    this.detach = attachStreamUpgrade(server, this.hub, (ws, socket, address) =>
      this.onSocket(ws, socket, address),
    );
  }

  async close(): Promise<void> {
    this.detach?.();
    await this.hub.close();
    this.feed.stop();
  }

  private onSocket(ws: WebSocket, socket: Duplex, remoteAddress: string | undefined): void {
    const session = this.hub.open(ws, socket, remoteAddress);
    ws.on('message', (data, isBinary) => {
      void this.dispatcher.onFrame(session, toBuffer(data), isBinary);
    });
    // Transport-level pings are answered by ws itself (autoPong); both count as hearing from the client.
    ws.on('ping', () => session.heard());
    ws.on('pong', () => session.heard());
    // Protocol violations (bad opcode, invalid UTF-8, frame over the hard cap) close the socket; never throw.
    ws.on('error', () => undefined);
    ws.on('close', (code) => session.socketClosedEvent(code));
  }
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
