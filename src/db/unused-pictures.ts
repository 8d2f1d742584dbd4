import Dexie, { type Table } from 'dexie';
import type { StoredKindDto } from '../contracts/settings-storage';
import { TERMINAL_JOB_STATUSES } from '../contracts/job-status';
import { addAttachmentIdsInValue, isRecognisedAttachmentId } from '../core/attachment-references';
import { systemClock, type Clock } from '../core/ids';
import type { NotesAgentDatabase } from './database';
import { AGENT_TABLES, type AgentRunRow } from './agent-stores';
import { ATTACHMENT_REUSES_TABLE, type AttachmentReuseRow } from './attachment-repository';
import { DRAFTS_TABLE } from './draft-repository';
import { IMPORT_STAGING_TABLE } from './import-staging-repository';
import { NOTE_VERSIONS_TABLE } from './note-versions';
import { guardQuota } from './storage-errors';

/**
 * A picture stored or handed out again this recently is never taken for
 * unused: the page links it at once, but the note holding the link may not be
 * saved yet (a save waits for a pause in typing, or for room when storage is
 * full), and another tab's unsaved text cannot be read from here at all.
 */
export const UNUSED_PICTURE_GRACE_MS = 24 * 60 * 60 * 1000;

interface Candidate {
  attachment_id: string;
  size: number;
}

/**
 * Pictures nothing uses, for Settings → Storage to show and delete. A picture
 * is used while its id appears in a note (the trash too: it can be restored),
 * a note's history, a tab's draft, a note an import is staging, a chat
 * message, or a job or agent run not finished yet. Finished agent traces do
 * not keep a picture: replaying one never shows it.
 *
 * Only pictures (`image/*`) are judged: audio belongs to its transcription and
 * other files to what stored them. Pictures an import is still writing
 * (`import_batch`) are its own to keep or roll back.
 *
 * The scan reads each table a row at a time, outside any long transaction, so
 * saving goes on meanwhile. The delete then checks each picture again in one
 * short transaction: one handed out again since (a paste of the same bytes)
 * stays, as does anything within the grace period.
 */
export class UnusedPictures {
  readonly #db: NotesAgentDatabase;
  readonly #clock: Clock;

  constructor(db: NotesAgentDatabase, clock: Clock = systemClock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** How many pictures nothing uses, and their bytes. */
  async find(): Promise<StoredKindDto> {
    return total(await this.#unused(this.#cutoff()));
  }

  /** Deletes the pictures nothing uses; what was deleted. */
  async delete(): Promise<StoredKindDto> {
    const cutoff = this.#cutoff();
    const unused = await this.#unused(cutoff);
    if (unused.length === 0) return { count: 0, bytes: 0 };
    const { attachments } = this.#db;
    const reuses = this.#reuses;
    return guardQuota(() =>
      this.#db.transaction('rw', attachments, reuses, async () => {
        const deleted: StoredKindDto = { count: 0, bytes: 0 };
        for (const { attachment_id } of unused) {
          const row = await attachments.get(attachment_id);
          if (!row || !isCandidate(row, cutoff)) continue;
          if (isRecent((await reuses.get(attachment_id))?.reused_at, cutoff)) continue;
          await attachments.delete(attachment_id);
          await reuses.delete(attachment_id);
          deleted.count += 1;
          deleted.bytes += row.size;
        }
        return deleted;
      }),
    );
  }

  #cutoff(): number {
    return this.#clock() - UNUSED_PICTURE_GRACE_MS;
  }

  get #reuses(): Table<AttachmentReuseRow, string> {
    return this.#db.table<AttachmentReuseRow, string>(ATTACHMENT_REUSES_TABLE);
  }

  async #unused(cutoff: number): Promise<Candidate[]> {
    const waiting = new Map<string, Candidate>();
    await this.#db.attachments.each((row) => {
      if (isCandidate(row, cutoff)) {
        waiting.set(row.attachment_id.toLowerCase(), { attachment_id: row.attachment_id, size: row.size });
      }
    });
    for (const reuse of await this.#reuses.bulkGet([...waiting.values()].map((c) => c.attachment_id))) {
      if (reuse && isRecent(reuse.reused_at, cutoff)) waiting.delete(reuse.attachment_id.toLowerCase());
    }
    // Every id found is struck off at once, so the scan ends when nothing is left to look for.
    const found = { add: (id: string) => waiting.delete(id) };
    const scan = async (collection: Dexie.Collection): Promise<void> => {
      if (waiting.size === 0) return;
      await collection
        .until(() => waiting.size === 0)
        .each((row: unknown) => addAttachmentIdsInValue(row, found));
    };
    const db = this.#db;
    await scan(db.notes.toCollection());
    await scan(db.table(NOTE_VERSIONS_TABLE).toCollection());
    await scan(db.table(DRAFTS_TABLE).toCollection());
    await scan(db.table(IMPORT_STAGING_TABLE).toCollection());
    await scan(db.messages.toCollection());
    const openJobs = db.jobs.where('status').noneOf([...TERMINAL_JOB_STATUSES]);
    const jobIds = (await openJobs.primaryKeys()) as string[];
    await scan(db.jobs.where('job_id').anyOf(jobIds));
    const openRuns = (await db
      .table<AgentRunRow, string>(AGENT_TABLES.runs)
      .where('status')
      .anyOf(['queued', 'running'])
      .primaryKeys()) as string[];
    for (const id of [...jobIds, ...openRuns]) {
      await scan(db.events.where('[resource_id+sequence]').between([id, Dexie.minKey], [id, Dexie.maxKey]));
    }
    if (openRuns.length > 0) await scan(db.table(AGENT_TABLES.artifacts).where('run_id').anyOf(openRuns));
    return [...waiting.values()];
  }
}

function isCandidate(
  row: { attachment_id: string; mime_type: string; created_at: string; import_batch?: string },
  cutoff: number,
): boolean {
  return (
    row.mime_type.toLowerCase().startsWith('image/') &&
    row.import_batch === undefined &&
    isRecognisedAttachmentId(row.attachment_id) &&
    !isRecent(row.created_at, cutoff)
  );
}

/** A time after the cutoff, or one that cannot be read (then it might be recent). */
function isRecent(iso: string | undefined, cutoff: number): boolean {
  if (iso === undefined) return false;
  const at = Date.parse(iso);
  return !(at <= cutoff);
}

function total(candidates: readonly Candidate[]): StoredKindDto {
  return { count: candidates.length, bytes: candidates.reduce((sum, c) => sum + c.size, 0) };
}
