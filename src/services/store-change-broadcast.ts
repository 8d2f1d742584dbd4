import type { EventEnvelope } from '../contracts';
import { STORE_CHANGES_CHANNEL, type StoreChange } from '../core/cross-tab-changes';
import { EventLog } from '../core/event-log';
import type { EventStore } from '../core/event-store';
import { newId } from '../core/ids';
import type { NoteChange } from '../db';

/** The part of BroadcastChannel this needs (tests pass a double). */
export interface ChangeChannel {
  postMessage(message: unknown): void;
}

/**
 * Tells the app's other tabs what this tab's core has just written. Called only after
 * the write committed (the notes repository's listener, a stored job event), so a tab
 * that reads the store on hearing it finds the change. Every message names this core
 * (`source`), so the page of this very tab can tell its own writes from the others'.
 */
export class StoreChangeBroadcast {
  readonly source: string;
  readonly #channel: ChangeChannel | null;

  constructor(channel: ChangeChannel | null = openChannel(), source: string = newId('tab')) {
    this.#channel = channel;
    this.source = source;
  }

  notesChanged(change: NoteChange): void {
    this.#post({ kind: 'notes', source: this.source, change: change.kind, ids: change.note_ids });
  }

  jobEvent(jobId: string, sequence: number): void {
    this.#post({ kind: 'job', source: this.source, ids: [jobId], sequence });
  }

  #post(message: StoreChange): void {
    try {
      this.#channel?.postMessage(message);
    } catch (error) {
      // Other tabs then catch up on their next read; the write itself stands.
      console.warn('NotesAgent: could not tell other tabs about a change', error);
    }
  }
}

function openChannel(): ChangeChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(STORE_CHANGES_CHANNEL) : null;
}

/** Jobs are the resources other tabs show live (the jobs panel); a job's id says it is one. */
function isJob(resourceId: string): boolean {
  return resourceId.startsWith('job_');
}

/**
 * The event log, telling other tabs each job event once it is stored: their cores never
 * see this one's events (each tab has its own), so their job panels would stand still.
 */
export class BroadcastingEventLog extends EventLog {
  readonly #broadcast: StoreChangeBroadcast;

  constructor(store: EventStore, broadcast: StoreChangeBroadcast) {
    super(store);
    this.#broadcast = broadcast;
  }

  override async publish(resourceId: string, event: string, data: unknown): Promise<EventEnvelope> {
    const envelope = await super.publish(resourceId, event, data);
    this.#stored(resourceId, envelope);
    return envelope;
  }

  override async publishWith(
    resourceId: string,
    event: string,
    persist: (timestamp: string) => Promise<EventEnvelope | undefined>,
  ): Promise<EventEnvelope | undefined> {
    const envelope = await super.publishWith(resourceId, event, persist);
    if (envelope) this.#stored(resourceId, envelope);
    return envelope;
  }

  #stored(resourceId: string, envelope: EventEnvelope): void {
    if (isJob(resourceId)) this.#broadcast.jobEvent(resourceId, envelope.sequence);
  }
}
