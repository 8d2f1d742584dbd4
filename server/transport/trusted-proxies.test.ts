import { describe, expect, it } from 'vitest';
import { TrustedProxies, parseProxyEntry } from './trusted-proxies';

describe('TrustedProxies.clientAddress', () => {
  const proxies = new TrustedProxies(['10.0.0.7', '10.1.0.0/16', 'fd00::/8']);

  it('is the socket’s peer when no proxy is trusted: X-Forwarded-For is never read', () => {
    const none = new TrustedProxies([]);
    expect(none.clientAddress('10.0.0.7', '203.0.113.9')).toBe('10.0.0.7');
    expect(none.clientAddress('::ffff:192.0.2.1', undefined)).toBe('192.0.2.1');
    expect(none.clientAddress(undefined, undefined)).toBe('unknown');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(proxies.clientAddress('198.51.100.4', '203.0.113.9')).toBe('198.51.100.4');
  });

  it('behind trusted proxies, is the right-most hop that is not one of them', () => {
    expect(proxies.clientAddress('10.0.0.7', '203.0.113.9')).toBe('203.0.113.9');
    expect(proxies.clientAddress('::ffff:10.0.0.7', '203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
    expect(proxies.clientAddress('fd00::1', ['203.0.113.9:5123', '[fd00::2]:80'])).toBe('203.0.113.9');
    expect(proxies.clientAddress('10.0.0.7', '2001:db8::5')).toBe('2001:db8::5');
  });

  it('cannot be fooled by hops the client wrote itself (left of the real one)', () => {
    // The client sent "X-Forwarded-For: 10.1.0.1, 192.0.2.200"; the proxy appended what it saw.
    expect(proxies.clientAddress('10.0.0.7', '10.1.0.1, 192.0.2.200, 203.0.113.9')).toBe('203.0.113.9');
  });

  it('falls back to the left-most hop when every hop is a trusted proxy, or to the peer without the header', () => {
    expect(proxies.clientAddress('10.0.0.7', '10.1.0.1, 10.1.0.2')).toBe('10.1.0.1');
    expect(proxies.clientAddress('10.0.0.7', undefined)).toBe('10.0.0.7');
    expect(proxies.clientAddress('10.0.0.7', '')).toBe('10.0.0.7');
  });
});

describe('parseProxyEntry', () => {
  it('takes addresses and CIDR ranges, nothing else', () => {
    expect(parseProxyEntry('10.0.0.7')).toEqual({ address: '10.0.0.7', family: 'ipv4' });
    expect(parseProxyEntry('fd00::/8')).toEqual({ address: 'fd00::', prefix: 8, family: 'ipv6' });
    expect(['lb.internal', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0.0/x', ''].map(parseProxyEntry)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
