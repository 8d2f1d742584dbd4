import { isTerminalEventName, type EventEnvelope } from '../contracts/events';

/**
 * Client-side seam handling (§4.4): replay and live delivery may overlap, and a
 * re-subscription after a worker restart replays from the last seen sequence.
 * Passes each (resource_id, sequence) once, in order, and nothing after the
 * terminal event.
 */
export class SequenceDeduper {
  readonly #lastSequence = new Map<string, number>();
  readonly #terminated = new Set<string>();

  accept(envelope: EventEnvelope): boolean {
    if (this.#terminated.has(envelope.resource_id)) return false;
    const last = this.#lastSequence.get(envelope.resource_id);
    if (last !== undefined && envelope.sequence <= last) return false;
    this.#lastSequence.set(envelope.resource_id, envelope.sequence);
    if (isTerminalEventName(envelope.event)) this.#terminated.add(envelope.resource_id);
    return true;
  }

  lastSequence(resourceId: string): number | undefined {
    return this.#lastSequence.get(resourceId);
  }

  isTerminated(resourceId: string): boolean {
    return this.#terminated.has(resourceId);
  }
}
