const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Binary multiples with the familiar short names: 12.3 MB, 2.1 GB. */
export function formatBytes(bytes: number, locale: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const number = new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
  return `${number} ${BYTE_UNITS[unit]}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "just now" / "5 minutes ago" / "3 hours ago" within a week, then a date; a
 * date in another year shows the year.
 */
export function formatUpdatedAt(iso: string, now: number, locale: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  // "Now" ticks every 30 s, so a note saved since the last tick looks a little
  // ahead of it: that is just now, not a date.
  const ahead = time - now;
  const elapsed = ahead > 0 && ahead < MINUTE ? 0 : now - time;
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (elapsed >= 0 && elapsed < MINUTE) return relative.format(0, 'second');
  if (elapsed >= 0 && elapsed < HOUR) return relative.format(-Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed >= 0 && elapsed < DAY) return relative.format(-Math.floor(elapsed / HOUR), 'hour');
  if (elapsed >= 0 && elapsed < 7 * DAY) return relative.format(-Math.floor(elapsed / DAY), 'day');
  const sameYear = new Date(time).getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(locale, {
    year: sameYear ? undefined : 'numeric',
    month: 'short',
    day: 'numeric',
  }).format(time);
}

/** Full local date and time for tooltips. */
export function formatDateTime(iso: string, locale: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/**
 * A short local time to the second for things made today ("14:03:21"), with the date before
 * it otherwise: two exports of one note minutes apart read apart, where "just now" would not.
 */
export function formatShortTime(iso: string, now: number, locale: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const day = new Date(time);
  const today = new Date(now);
  const sameDay =
    day.getFullYear() === today.getFullYear() &&
    day.getMonth() === today.getMonth() &&
    day.getDate() === today.getDate();
  return new Intl.DateTimeFormat(locale, {
    ...(!sameDay && { month: 'short', day: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(time);
}
