import { describe, expect, it } from 'vitest';
import { formatBytes, formatShortTime, formatUpdatedAt } from './format';

describe('formatBytes', () => {
  it('uses binary multiples with one decimal', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(12.3 * 1024 * 1024, 'en')).toBe('12.3 MB');
    expect(formatBytes(2.1 * 1024 ** 3, 'en')).toBe('2.1 GB');
    expect(formatBytes(150 * 1024, 'en')).toBe('150 KB');
  });

  it('rejects nonsense', () => {
    expect(formatBytes(Number.NaN, 'en')).toBe('—');
    expect(formatBytes(-1, 'en')).toBe('—');
  });
});

describe('formatUpdatedAt', () => {
  const now = Date.parse('2026-03-10T12:00:00.000Z');

  it('is relative within a week', () => {
    expect(formatUpdatedAt('2026-03-10T11:59:30.000Z', now, 'en')).toBe('now');
    expect(formatUpdatedAt('2026-03-10T11:55:00.000Z', now, 'en')).toBe('5 minutes ago');
    expect(formatUpdatedAt('2026-03-10T09:00:00.000Z', now, 'en')).toBe('3 hours ago');
    expect(formatUpdatedAt('2026-03-09T09:00:00.000Z', now, 'en')).toBe('yesterday');
    expect(formatUpdatedAt('2026-03-10T11:55:00.000Z', now, 'zh-CN')).toBe('5分钟前');
  });

  it('says "now" for a save made since the clock last ticked (a little ahead of it)', () => {
    expect(formatUpdatedAt('2026-03-10T12:00:20.000Z', now, 'en')).toBe('now');
    expect(formatUpdatedAt('2026-03-10T12:00:20.000Z', now, 'zh-CN')).toBe('现在');
    // Far ahead is a real future date, shown as such.
    expect(formatUpdatedAt('2026-04-10T12:00:00.000Z', now, 'en')).toBe('Apr 10');
  });

  it('shows a date after a week, with the year when it differs', () => {
    expect(formatUpdatedAt('2026-02-01T12:00:00.000Z', now, 'en')).toBe('Feb 1');
    expect(formatUpdatedAt('2025-02-01T12:00:00.000Z', now, 'en')).toBe('Feb 1, 2025');
  });

  it('returns an empty string for a bad timestamp', () => {
    expect(formatUpdatedAt('not a date', now, 'en')).toBe('');
  });
});

describe('formatShortTime', () => {
  // Built from local parts: the formatter speaks the machine's time zone.
  const now = new Date(2026, 2, 10, 18, 0, 0).getTime();
  const today = new Date(2026, 2, 10, 14, 3, 21).toISOString();
  const earlier = new Date(2026, 2, 8, 9, 5, 7).toISOString();

  it('shows the time to the second for today', () => {
    expect(formatShortTime(today, now, 'en')).toBe('02:03:21 PM');
    expect(formatShortTime(today, now, 'zh-CN')).toBe('14:03:21');
  });

  it('puts the date before the time on another day', () => {
    expect(formatShortTime(earlier, now, 'en')).toBe('Mar 8, 09:05:07 AM');
    expect(formatShortTime(earlier, now, 'zh-CN')).toContain('3月8日');
  });

  it('gives nothing for a time it cannot read', () => {
    expect(formatShortTime('not a time', now, 'en')).toBe('');
  });
});
