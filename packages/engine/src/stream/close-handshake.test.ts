import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.js';
import { CloseHandshake } from './close-handshake.js';

function setup(needDrain: boolean) {
  const clock = new ManualClock(0);
  const socket = Object.assign(new EventEmitter(), { writableNeedDrain: needDrain });
  const calls: string[] = [];
  const ws = {
    close: (code: number) => calls.push(`close ${code}@${clock.now()}`),
    terminate: () => calls.push(`terminate@${clock.now()}`),
  };
  let heard = 0;
  const handshake = new CloseHandshake(
    ws as unknown as WebSocket,
    socket as unknown as Duplex,
    clock,
    { idleDropMs: 60_000, closeGraceMs: 5_000 },
    () => heard,
  );
  return { clock, socket, calls, handshake, hear: () => (heard = clock.now()) };
}

describe('CloseHandshake', () => {
  it('closes at once when the socket takes writes, then allows the grace for the answer', () => {
    const { clock, calls, handshake } = setup(false);
    handshake.start(1011, 'x');
    clock.advance(5_000);
    expect(calls).toEqual(['close 1011@0', 'terminate@5000']);
  });

  it('waits for the socket to drain before the close frame, however long within the silence window', () => {
    const { clock, socket, calls, handshake } = setup(true);
    handshake.start(1011, 'x');
    clock.advance(59_000);
    expect(calls).toEqual([]);
    socket.emit('drain');
    expect(calls).toEqual(['close 1011@59000']);
    clock.advance(60_000); // the silence timer is gone; only the grace ran
    expect(calls).toEqual(['close 1011@59000', 'terminate@64000']);
    expect(clock.pending).toBe(0);
  });

  it('a client that talks but never reads is cut off 60 s after the close began at the latest', () => {
    const { clock, calls, handshake, hear } = setup(true);
    handshake.start(1011, 'x');
    for (let i = 0; i < 10; i++) {
      clock.advance(10_000);
      hear();
    }
    expect(calls).toEqual(['terminate@60001']);
  });

  it('stop() leaves no timer and no listener behind', () => {
    const { clock, socket, handshake } = setup(true);
    handshake.start(1000, 'x');
    handshake.stop();
    expect(clock.pending).toBe(0);
    expect(socket.listenerCount('drain')).toBe(0);
  });
});
