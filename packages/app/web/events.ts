/** The events WebSocket (`/api/v1/events`): reconnects with capped, jittered exponential backoff. */
import type { AppEvent } from '../src/api-types.js';

export type SocketState =
  | { state: 'connecting'; attempt: number }
  | { state: 'open'; since: number }
  | { state: 'waiting'; attempt: number; retryAt: number };

export interface EventSocketHandlers {
  onEvent(e: AppEvent): void;
  onState(s: SocketState): void;
  /** Called on every open after the first: the caller re-reads what it may have missed. */
  onReopen(): void;
}

const BASE_MS = 500;
const MAX_MS = 10_000;

export function backoffMs(attempt: number): number {
  const exp = Math.min(MAX_MS, BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (0.75 + Math.random() * 0.25));
}

export function connectEvents(h: EventSocketHandlers): () => void {
  let ws: WebSocket | undefined;
  let attempt = 0;
  let opened = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/events`;

  const open = () => {
    if (stopped) return;
    attempt += 1;
    h.onState({ state: 'connecting', attempt });
    const sock = new WebSocket(url);
    ws = sock;
    sock.onopen = () => {
      const again = opened;
      opened = true;
      attempt = 0;
      h.onState({ state: 'open', since: Date.now() });
      if (again) h.onReopen();
    };
    sock.onmessage = (m) => {
      if (typeof m.data !== 'string') return;
      let frame: AppEvent;
      try {
        frame = JSON.parse(m.data) as AppEvent;
      } catch {
        return;
      }
      if (frame && typeof frame === 'object' && typeof frame.type === 'string') h.onEvent(frame);
    };
    sock.onclose = () => {
      if (ws !== sock || stopped) return;
      const delay = backoffMs(attempt);
      h.onState({ state: 'waiting', attempt, retryAt: Date.now() + delay });
      timer = setTimeout(open, delay);
    };
    sock.onerror = () => sock.close();
  };
  open();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    ws?.close();
  };
}
