import { describe, expect, it } from 'vitest';
import { MAX_CLIENT_FRAME_BYTES, parseStreamRequest } from './stream.js';

describe('parseStreamRequest', () => {
  it('parses each client op', () => {
    const frames = [
      { op: 'login', token: 't', cancel_on_disconnect: true, request_id: 'r1' },
      { op: 'subscribe', channels: ['orders', 'fills', 'tree'] },
      { op: 'unsubscribe', channels: ['tree'] },
      { op: 'order.place', params: { symbol: 'X' } },
      { op: 'order.cancel', order_id: 'AA'.repeat(16), params: {} },
      { op: 'order.modify', order_id: 'aa'.repeat(16), params: {} },
      { op: 'ping', request_id: 7 },
      { op: 'logout' },
    ];
    for (const f of frames) {
      const r = parseStreamRequest(JSON.stringify(f));
      expect(r.ok, f.op).toBe(true);
      if (r.ok) expect(r.value.op).toBe(f.op);
    }
  });

  it('normalises order ids and keeps integer request ids exact', () => {
    const r = parseStreamRequest(
      '{"op":"order.cancel","order_id":"' +
        'AB'.repeat(16) +
        '","params":{},"request_id":18446744073709551615}',
    );
    expect(r.ok).toBe(true);
    if (r.ok && r.value.op === 'order.cancel') {
      expect(r.value.order_id).toBe('ab'.repeat(16));
      expect(r.value.request_id).toBe(18446744073709551615n);
    }
  });

  it('refuses unknown ops, bad JSON, unknown channels and oversize frames with 1001', () => {
    for (const data of [
      '{"op":"hack"}',
      'not json',
      '[]',
      '{"op":"subscribe","channels":["account"]}',
      '{"op":"subscribe","channels":[]}',
      '{"op":"login"}',
      '{"op":"ping","extra":1}',
      ' '.repeat(MAX_CLIENT_FRAME_BYTES + 1),
    ]) {
      const r = parseStreamRequest(data);
      expect(r.ok ? 'ok' : r.code, data.slice(0, 40)).toBe(1001);
    }
  });

  it('echoes a readable request_id on failure', () => {
    const r = parseStreamRequest('{"op":"login","request_id":"abc"}');
    expect(r.ok).toBe(false);
    expect(r.request_id).toBe('abc');
  });
});
