import { describe, expect, it } from 'vitest';
import { addressKey } from '@nightjar/protocol';
import { AddressBuckets, callCost, rowsRead, type ReadCaps } from '../src/rate-limit.js';

const CAPS: ReadCaps = { leaves: 2048, memos: 10_000, deposits: 1000, blockRows: 256 };

describe('per-address read budget', () => {
  it('an IPv4 address is its own bucket; IPv6 addresses share one per /64', () => {
    expect(addressKey('127.0.0.2')).toBe('127.0.0.2');
    expect(addressKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:ffff:1:2:3'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
  });

  it('a read costs the rows it asks for, capped at the page; other calls cost 1', () => {
    expect(callCost('getLeaves', { tree_id: 0, from: 0, to: 1_000_000 }, CAPS)).toBe(2048);
    expect(callCost('getLeaves', { tree_id: 0, from: 10, to: 20 }, CAPS)).toBe(10);
    expect(callCost('getLeaves', { tree_id: 0, from: 'x', to: 20 }, CAPS)).toBe(1);
    expect(callCost('getMemos', { from: 0, to: 50_000 }, CAPS)).toBe(10_000);
    expect(callCost('getDeposits', { owner: 'x' }, CAPS)).toBe(1000);
    expect(callCost('getBlock', { slot: 1 }, CAPS)).toBe(256);
    expect(callCost('getNoteStatuses', { nullifiers: ['a', 'b', 'c'] }, CAPS)).toBe(3);
    expect(callCost('getSlot', {}, CAPS)).toBe(1);
  });

  it('a read is charged the rows it returned in the end (the server refunds the rest)', () => {
    expect(rowsRead('getLeaves', { leaves: [1, 2, 3] })).toBe(3);
    expect(rowsRead('getMemos', { memos: [] })).toBe(0);
    expect(rowsRead('getBlock', { slot: 1, transactions: [1] })).toBe(1);
    expect(rowsRead('getNoteStatuses', [1, 2])).toBe(2);
    expect(rowsRead('getSlot', 5)).toBeUndefined();
    const buckets = new AddressBuckets({ capacity: 100, refillPerSecond: 0 }, () => 0);
    expect(buckets.take('10.0.0.1', 100)).toBe(true);
    buckets.refund('10.0.0.1', 99);
    expect(buckets.take('10.0.0.1', 99)).toBe(true);
    buckets.refund('10.0.0.1', 1000);
    expect(buckets.take('10.0.0.1', 101)).toBe(false);
  });

  it('a bucket refills with time up to its capacity; one address does not drain another', () => {
    let now = 0;
    const buckets = new AddressBuckets({ capacity: 100, refillPerSecond: 10 }, () => now);
    expect(buckets.take('10.0.0.1', 60)).toBe(true);
    expect(buckets.take('10.0.0.1', 60)).toBe(false);
    expect(buckets.take('10.0.0.2', 100)).toBe(true);
    now += 2000; // +20 tokens
    expect(buckets.take('10.0.0.1', 60)).toBe(true);
    now += 3_600_000;
    expect(buckets.take('10.0.0.1', 100)).toBe(true);
    expect(buckets.take('10.0.0.1', 1)).toBe(false);
  });
});
