import type { EventEnvelope } from '../../contracts/events';
import { firstLine } from '../chat/spoken-answer';

/** How a run ended, as the announcement says it. */
export type RunEnd =
  | { kind: 'completed'; answer: string }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'cancelled' };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The run's end from its events (null while it runs): the answer's first line, or why it failed. */
export function runEnd(events: readonly EventEnvelope[]): RunEnd | null {
  const ended = events.find(
    (envelope) =>
      envelope.event === 'RunCompleted' ||
      envelope.event === 'RunFailed' ||
      envelope.event === 'RunCancelled',
  );
  if (!ended) return null;
  const data =
    typeof ended.data === 'object' && ended.data !== null ? (ended.data as Record<string, unknown>) : {};
  if (ended.event === 'RunCompleted') return { kind: 'completed', answer: firstLine(text(data.output)) };
  if (ended.event === 'RunFailed')
    return { kind: 'failed', code: text(data.code), message: text(data.message) };
  return { kind: 'cancelled' };
}
