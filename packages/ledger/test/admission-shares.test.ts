/** The admission bounds on their own: sources, the fresh share, the TEE keys outside every share. */
import { describe, expect, it } from 'vitest';
import { LOCAL_SOURCE, SignerLanes, sourceOf } from '../src/admission.js';

const never = () => new Promise<never>(() => undefined);

describe('admission shares', () => {
  it('names a source by IPv4 address, by IPv6 /64, and in process as the local source', () => {
    expect(sourceOf(undefined)).toBe(LOCAL_SOURCE);
    expect(sourceOf('127.0.0.2')).toBe('127.0.0.2');
    expect(sourceOf('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(sourceOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(sourceOf('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(sourceOf('::1')).toBe('0:0:0:0::/64');
  });

  it('fresh signers of one address fill only their share; signers with history, other addresses and TEE keys still get in', () => {
    const lanes = new SignerLanes({ perSigner: 4, perSource: 6, total: 10, fresh: 5, freshPerSource: 3 });
    for (let i = 0; i < 3; i++) lanes.admit(`fresh${i}`, 'a', 'fresh', never);
    expect(() => lanes.assertRoom('fresh9', 'a', 'fresh')).toThrow(/new signers from this address/);
    lanes.admit('old', 'a', 'history', never);
    for (let i = 0; i < 2; i++) lanes.admit(`other${i}`, 'b', 'fresh', never);
    expect(() => lanes.assertRoom('fresh9', 'c', 'fresh')).toThrow(/new signers waiting/);
    lanes.admit('old', 'a', 'history', never);
    lanes.admit('old', 'a', 'history', never);
    expect(() => lanes.assertRoom('old2', 'a', 'history')).toThrow(/from this address/);
    lanes.admit('tee', 'a', 'tee', never);
    const { release } = lanes.admit('old3', 'c', 'history', never);
    lanes.admit('old4', 'c', 'history', never);
    expect(() => lanes.assertRoom('old5', 'c', 'history')).toThrow(/too many transactions waiting/);
    release();
    expect(() => lanes.assertRoom('old5', 'c', 'history')).not.toThrow();
  });
});
