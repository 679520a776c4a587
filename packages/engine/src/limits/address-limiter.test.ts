import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';
import { AddressLimiter, addressKey } from './address-limiter.js';

describe('addressKey', () => {
  it('counts IPv4 (mapped too) by address and IPv6 by /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
  });
});

describe('AddressLimiter', () => {
  it('refunds the caller when the shared budget refuses', () => {
    const now = () => 0;
    const own = new RateLimiter({ capacity: 2, refillPerSecond: 1, now });
    const shared = new RateLimiter({ capacity: 1, refillPerSecond: 1, now, maxEntries: 1 });
    const limiter = new AddressLimiter(own, shared);
    limiter.charge('203.0.113.7', 1, 'quotes');
    expect(() => limiter.charge('203.0.113.8', 1, 'quotes')).toThrow(/venue-wide/);
    expect(own.available('203.0.113.8')).toBe(2);
    expect(() => limiter.charge('2001:db8:1:2::9', 1, 'quotes')).toThrow(/venue-wide/);
  });
});
