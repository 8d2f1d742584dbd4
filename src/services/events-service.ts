import { z } from 'zod';
import {
  parseInput,
  sequenceQuerySchema,
  type EventEnvelope,
  type SequencePage,
  type SequenceQuery,
} from '../contracts';
import type { EventLog, Subscription } from '../core/event-log';

const resourceIdSchema = z.string().min(1, 'resource_id is required');

/** Event replay and subscription for any resource (jobs today; runs and transcriptions later). */
export class EventsService {
  readonly #log: EventLog;

  constructor(log: EventLog) {
    this.#log = log;
  }

  async list(resourceId: string, query: SequenceQuery = {}): Promise<SequencePage<EventEnvelope>> {
    const id = parseInput(resourceIdSchema, resourceId);
    const { after_sequence, limit } = parseInput(sequenceQuerySchema, query);
    return this.#log.list(id, after_sequence, limit);
  }

  subscribe(
    resourceId: string,
    afterSequence: number,
    onEvent: (envelope: EventEnvelope) => void,
  ): Subscription {
    const id = parseInput(resourceIdSchema, resourceId);
    const { after_sequence } = parseInput(sequenceQuerySchema, { after_sequence: afterSequence });
    return this.#log.subscribe(id, after_sequence, onEvent);
  }
}
