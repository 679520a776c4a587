/**
 * The events WebSocket (`/api/v1/events`): the sockets open, the browser session each was opened
 * under (null for the bot's), and the upgrade's front door (path, Host and Origin, session).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppEvent } from './api-types.js';
import { API_PREFIX } from './api/route-descriptor.js';
import { APP_ROUTES } from './api/routes.js';
import { toJson } from './json.js';
import { checkHostAndOrigin, type Sessions } from './security.js';

/**
 * The most a client may leave unread on the events socket. A client that stops reading (a stuck
 * bot) is closed instead of growing the app's memory; it reconnects and re-reads the state.
 */
export const EVENTS_BACKLOG_LIMIT = 1 << 20;

/** Sends one frame, or closes a socket whose unread backlog is over the limit (1008). */
export function sendBounded(
  ws: Pick<WebSocket, 'readyState' | 'OPEN' | 'bufferedAmount' | 'send' | 'close'>,
  text: string,
): void {
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount + text.length > EVENTS_BACKLOG_LIMIT)
    ws.close(1008, 'events backlog over 1 MiB: reconnect');
  else ws.send(text);
}

const EVENTS_PATH = API_PREFIX + APP_ROUTES.events.path;

const refuse = (socket: Duplex, status: number, text: string) => {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
};

export class EventSockets {
  /** Each events socket and the browser session it was opened under (null for the bot's). */
  private readonly sockets = new Map<WebSocket, string | null>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });

  broadcast(e: AppEvent): void {
    const text = toJson(e);
    for (const ws of this.sockets.keys()) sendBounded(ws, text);
  }

  /** A session ended: its sockets close. */
  endSession(sessionId: string): void {
    for (const [ws, id] of this.sockets) if (id === sessionId) ws.close(1008, 'session ended: log in again');
  }

  /** A session's cookie was rotated: its sockets follow it. */
  moveSession(from: string, to: string): void {
    for (const [ws, id] of this.sockets) if (id === from) this.sockets.set(ws, to);
  }

  /** Answers upgrades on `server`; a new socket first gets `greeting()`'s frames. */
  attach(server: Server, sessions: Sessions, port: () => number, greeting: () => AppEvent[]): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if ((req.url ?? '').split('?')[0] !== EVENTS_PATH) return refuse(socket, 404, 'Not Found');
      if (checkHostAndOrigin(req.headers, port())) return refuse(socket, 403, 'Forbidden');
      const session = sessions.authenticate(req.headers);
      if (!session) return refuse(socket, 401, 'Unauthorized');
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        this.sockets.set(ws, session.kind === 'browser' ? session.id : null);
        ws.on('close', () => this.sockets.delete(ws));
        ws.on('error', () => this.sockets.delete(ws));
        // Incoming frames carry nothing the app acts on.
        ws.on('message', () => undefined);
        for (const e of greeting()) ws.send(toJson(e));
      });
    });
  }

  close(): void {
    for (const ws of this.sockets.keys()) ws.terminate();
    this.wss.close();
  }
}
