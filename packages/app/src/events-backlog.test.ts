import { describe, expect, it } from 'vitest';
import { EVENTS_BACKLOG_LIMIT, sendBounded } from './events-socket.js';

/** A socket whose peer reads nothing: every frame sent stays buffered. */
function stuckSocket() {
  const sock = {
    OPEN: 1 as const,
    readyState: 1 as number,
    bufferedAmount: 0,
    sent: 0,
    closed: undefined as number | undefined,
    send(text: string) {
      this.bufferedAmount += text.length;
      this.sent++;
    },
    close(code?: number) {
      this.closed = code;
      this.readyState = 3;
    },
  };
  return sock;
}

describe('the events socket of a client that stops reading', () => {
  it('is closed (1008) once its unread backlog would pass 1 MiB, not buffered without bound', () => {
    const ws = stuckSocket();
    const frame = 'x'.repeat(10_000);
    for (let i = 0; i < 1_000; i++) sendBounded(ws as never, frame);
    expect(ws.closed).toBe(1008);
    expect(ws.bufferedAmount).toBeLessThanOrEqual(EVENTS_BACKLOG_LIMIT);
    expect(ws.sent).toBe(Math.floor(EVENTS_BACKLOG_LIMIT / frame.length));
  });

  it('a client that reads keeps getting every frame', () => {
    const ws = stuckSocket();
    for (let i = 0; i < 1_000; i++) {
      sendBounded(ws as never, 'x'.repeat(10_000));
      ws.bufferedAmount = 0; // read by the peer
    }
    expect(ws.closed).toBeUndefined();
    expect(ws.sent).toBe(1_000);
  });
});
