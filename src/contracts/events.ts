/**
 * §4.4 event envelope: `id` equals the resumable sequence; `(resource_id,
 * sequence)` is the idempotency key; `event` is the event name.
 */
export interface EventEnvelope<D = unknown, E extends string = string> {
  id: number;
  sequence: number;
  event: E;
  resource_id: string;
  data: D;
  timestamp: string;
}

/** §4.4: these end a subscription; exactly one is delivered per resource. */
export const TERMINAL_EVENT_NAMES = [
  'Completed',
  'Failed',
  'Cancelled',
  'RunCompleted',
  'RunFailed',
  'RunCancelled',
  // §8.2: a model stream (a chat turn) ends with exactly one Done.
  'Done',
] as const;

export function isTerminalEventName(name: string): boolean {
  return (TERMINAL_EVENT_NAMES as readonly string[]).includes(name);
}

export function eventKey(envelope: Pick<EventEnvelope, 'resource_id' | 'sequence'>): string {
  return `${envelope.resource_id}\u0000${envelope.sequence}`;
}
