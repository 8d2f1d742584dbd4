import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../config';
import { AuthThrottle, bearerKeyMatches, isLoopbackAddress, originAllowed } from './access-control';

const policy = { allowed: [] as string[], tls: false, serverHost: '0.0.0.0' };

describe('originAllowed', () => {
  it('lets clients without Origin (IDE plugins) through', () => {
    expect(originAllowed(undefined, '10.0.0.5:8765', policy)).toBe(true);
  });

  it('allows the test page’s own origin when reached by IP, localhost or the configured host', () => {
    expect(originAllowed('http://127.0.0.1:8765', '127.0.0.1:8765', policy)).toBe(true);
    expect(originAllowed('http://localhost:8765', 'localhost:8765', policy)).toBe(true);
    expect(originAllowed('http://[::1]:8765', '[::1]:8765', policy)).toBe(true);
    expect(originAllowed('http://10.0.0.5:8765', '10.0.0.5:8765', policy)).toBe(true);
    expect(
      originAllowed('https://agent.team:8765', 'agent.team:8765', {
        ...policy,
        tls: true,
        serverHost: 'agent.team',
      }),
    ).toBe(true);
  });

  it('refuses other pages, a scheme mismatch and a rebound domain name', () => {
    expect(originAllowed('http://evil.example', '127.0.0.1:8765', policy)).toBe(false);
    expect(originAllowed('https://127.0.0.1:8765', '127.0.0.1:8765', policy)).toBe(false);
    // DNS rebinding: the attacker's name resolves here, so Host matches Origin.
    expect(originAllowed('http://evil.example:8765', 'evil.example:8765', policy)).toBe(false);
    expect(originAllowed('null', '127.0.0.1:8765', policy)).toBe(false);
  });

  it('allows configured origins exactly, or all with "*"', () => {
    const configured = { ...policy, allowed: ['https://IDE.example/'] };
    expect(originAllowed('https://ide.example', '127.0.0.1:8765', configured)).toBe(true);
    expect(originAllowed('https://ide.example.evil', '127.0.0.1:8765', configured)).toBe(false);
    expect(originAllowed('https://any.where', 'x', { ...policy, allowed: ['*'] })).toBe(true);
  });
});

describe('isLoopbackAddress and bearerKeyMatches', () => {
  it('knows loopback addresses, IPv4-mapped included', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopbackAddress)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '', undefined].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('matches a bearer key against its hash', () => {
    const sha = hashApiKey('m-key');
    expect(bearerKeyMatches('Bearer m-key', sha)).toBe(true);
    expect(bearerKeyMatches('Bearer other', sha)).toBe(false);
    expect(bearerKeyMatches('m-key', sha)).toBe(false);
    expect(bearerKeyMatches('Bearer m-key', undefined)).toBe(false);
  });
});

describe('AuthThrottle', () => {
  it('blocks an address after maxFailures in a window, until the window ends; others are unaffected', () => {
    let now = 1000;
    const throttle = new AuthThrottle({ maxFailures: 3, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      expect(throttle.blocked('10.0.0.1')).toBe(false);
      throttle.recordFailure('10.0.0.1');
    }
    expect(throttle.blocked('10.0.0.1')).toBe(true);
    expect(throttle.blocked('10.0.0.2')).toBe(false);
    now += 59_999;
    expect(throttle.blocked('10.0.0.1')).toBe(true);
    now += 1;
    expect(throttle.blocked('10.0.0.1')).toBe(false);
  });

  it('says how long a blocked address waits (Retry-After), and 0 when it is not blocked', () => {
    let now = 1000;
    const throttle = new AuthThrottle({ maxFailures: 2, windowMs: 60_000, now: () => now });
    throttle.recordFailure('10.0.0.1');
    expect(throttle.retryAfterMs('10.0.0.1')).toBe(0);
    throttle.recordFailure('10.0.0.1');
    expect(throttle.retryAfterMs('10.0.0.1')).toBe(60_000);
    now += 45_500;
    expect(throttle.retryAfterMs('10.0.0.1')).toBe(14_500);
    expect(throttle.retryAfterMs('10.0.0.2')).toBe(0);
  });

  it('keeps its memory bounded under many addresses', () => {
    const throttle = new AuthThrottle({ maxFailures: 1, windowMs: 60_000, now: () => 0 });
    for (let i = 0; i < AuthThrottle.MAX_TRACKED + 50; i++) throttle.recordFailure(`a${i}`);
    expect(throttle.blocked(`a${AuthThrottle.MAX_TRACKED + 49}`)).toBe(true);
    expect(throttle.blocked('a0')).toBe(false);
  });
});
