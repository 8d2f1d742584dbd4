/** The parts of a transcript segment the player needs. */
export interface TimedSegment {
  start_time: number;
  end_time: number;
}

/**
 * Index of the segment playing at `time`, or -1 in a gap, before the first or
 * after the last. Segments are sorted and do not overlap (§5.2), so a binary
 * search finds it; a segment owns its start but not its end, so at a boundary
 * the next segment is current.
 */
export function segmentIndexAt(segments: readonly TimedSegment[], time: number): number {
  if (!Number.isFinite(time)) return -1;
  let low = 0;
  let high = segments.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const segment = segments[middle]!;
    if (time < segment.start_time) high = middle - 1;
    else if (time >= segment.end_time) low = middle + 1;
    else return middle;
  }
  return -1;
}

/**
 * A media timestamp: `m:ss` under an hour, `h:mm:ss` from an hour on, with
 * tenths when asked (segment lists show where a segment starts to the tenth).
 * Negative or non-finite times show as 0:00; time is truncated, never rounded
 * up, so 59.96 s is 0:59 and not 1:00.
 */
export function formatTimestamp(seconds: number, { tenths = false }: { tenths?: boolean } = {}): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const totalTenths = Math.floor(safe * 10 + 1e-6);
  const whole = Math.floor(totalTenths / 10);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = whole % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  const clock = hours > 0 ? `${hours}:${pad(minutes)}:${pad(secs)}` : `${minutes}:${pad(secs)}`;
  return tenths ? `${clock}.${totalTenths % 10}` : clock;
}
