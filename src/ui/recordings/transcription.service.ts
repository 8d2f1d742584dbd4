import type { Remote } from 'comlink';
import type { NoteDto } from '../../contracts/notes';
import type {
  BlockCitationDto,
  TranscriptionJob,
  TranscriptNoteInput,
  UpdateAsrSettingsInput,
} from '../../contracts/transcription';
import type { CoreApi } from '../../services/core-api';
import { core, subscribeEvents } from '../api/core-client';
import { editor } from '../editor/editor.svelte';
import { openNote as openNoteAt } from '../navigation';
import { reportError } from '../errors';
import { i18n } from '../i18n';
import { refreshAll } from '../notes/notes.service';
import { transcriptionView as view } from './transcription.svelte';
import { uploadRefusal } from './upload-refusal';
import { mayBeChinese, startingChineseScript } from './transcription-choices';
import { applyTranscriptionEvent, isTerminalTranscriptionEvent, liveFromJob } from './transcription-events';

const JOB_PAGE = 50;

function transcriptions(): Remote<CoreApi['transcriptions']> {
  return core.transcriptions;
}

function attachments(): Remote<CoreApi['attachments']> {
  return core.attachments;
}

/**
 * One event subscription per job that is still queued or running. They outlive the
 * page: a job keeps running in the worker while the user is in a note, and its
 * segments arrive only in `Progress` events (the stored row has none until it ends),
 * so a subscription dropped on leaving would lose what was transcribed meanwhile.
 * Each ends with its job's terminal event.
 */
const following = new Map<string, () => void>();

function follow(job: TranscriptionJob): void {
  // Already followed: its events are newer than any snapshot.
  if (following.has(job.job_id)) return;
  const previous = view.liveOf(job.job_id);
  // A newer snapshot replaces what the events built, but never un-finishes a job.
  if (!previous || previous.status === 'queued' || previous.status === 'running') {
    // From sequence -1: the replay rebuilds every segment so far (merged by id).
    view.setLive({ ...liveFromJob(job), segments: previous?.segments ?? job.segments, sequence: -1 });
  }
  if (job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled') return;
  const unsubscribe = subscribeEvents(job.job_id, (envelope) => {
    view.updateLive(job.job_id, (live) => applyTranscriptionEvent(live, envelope));
    if (isTerminalTranscriptionEvent(envelope.event)) {
      unfollow(job.job_id);
      void refreshJob(job.job_id);
    }
  });
  following.set(job.job_id, unsubscribe);
  guardUnload();
}

function unfollow(jobId: string): void {
  following.get(jobId)?.();
  following.delete(jobId);
  guardUnload();
}

/**
 * A job stops with the tab. The next start goes on from its last finished segment, but
 * nothing moves while the app is closed and the window in progress is heard again, so
 * closing or reloading while one is queued or running still asks first.
 */
function onBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older Chromium asks only when returnValue is set.
  event.returnValue = '';
}

let unloadGuarded = false;

function guardUnload(): void {
  const wanted = following.size > 0;
  if (wanted === unloadGuarded || typeof window === 'undefined') return;
  unloadGuarded = wanted;
  if (wanted) window.addEventListener('beforeunload', onBeforeUnload);
  else window.removeEventListener('beforeunload', onBeforeUnload);
}

/** The stored job after its end: the full transcript, warnings and error. */
async function refreshJob(jobId: string): Promise<void> {
  try {
    const job = await transcriptions().get(jobId);
    view.upsertJob(job);
    const sequence = view.liveOf(jobId)?.sequence ?? -1;
    view.setLive({ ...liveFromJob(job), sequence });
  } catch (error) {
    reportError(error);
  }
}

export async function loadTranscriptionPage(): Promise<void> {
  try {
    const [page, profiles, settings, diarizationModels] = await Promise.all([
      transcriptions().list({ limit: JOB_PAGE, offset: 0 }),
      transcriptions().profiles(),
      transcriptions().getSettings(),
      transcriptions().diarizationModels(),
    ]);
    view.setCatalog(profiles, settings, diarizationModels);
    view.setJobs(page.items);
    page.items.forEach(follow);
    // Back on the page: the job shown before leaving gets its audio (freed on leaving) again.
    const shown = view.selectedJobId;
    if (shown !== null && view.jobs.some((job) => job.job_id === shown)) void openJob(shown);
    await loadAudioNames(page.items);
  } catch (error) {
    reportError(error);
  }
}

/** The settings page's part: the stored settings and what can be chosen. */
export async function loadTranscriptionSettings(): Promise<void> {
  try {
    const [profiles, settings, diarizationModels] = await Promise.all([
      transcriptions().profiles(),
      transcriptions().getSettings(),
      transcriptions().diarizationModels(),
    ]);
    view.setCatalog(profiles, settings, diarizationModels);
  } catch (error) {
    reportError(error);
  }
}

async function loadAudioNames(jobs: readonly TranscriptionJob[]): Promise<void> {
  const ids = [...new Set(jobs.map((job) => job.attachment_id))];
  const found = await Promise.all(
    // A deleted attachment keeps its id as the row's label.
    ids.map((id) =>
      attachments()
        .get(id)
        .then(
          (attachment) => [id, attachment.name] as const,
          () => null,
        ),
    ),
  );
  view.setAudioNames(Object.fromEntries(found.filter((entry) => entry !== null)));
}

let openRequest = 0;

/** Shows a job: its segments (live while it runs) and its audio in the player. */
export async function openJob(jobId: string): Promise<void> {
  const request = ++openRequest;
  view.select(jobId);
  const job = view.jobs.find((candidate) => candidate.job_id === jobId);
  if (!job) return;
  if (job.status === 'completed') void loadJobNotes(jobId);
  try {
    const blob = await attachments().blob(job.attachment_id);
    if (request === openRequest) view.setAudioUrl(URL.createObjectURL(blob));
  } catch (error) {
    if (request === openRequest) view.setAudioUrl(null);
    reportError(error);
  }
}

/**
 * The notes already made from a completed job: the job links to them rather than
 * inviting the same note twice. A failure to read them leaves the form as it was.
 */
async function loadJobNotes(jobId: string): Promise<void> {
  try {
    view.setNotes(jobId, await transcriptions().listNotes(jobId));
  } catch (error) {
    reportError(error);
  }
}

let uploads: Promise<unknown> = Promise.resolve();

/**
 * Upload (stored once, by content) then a queued job at once; the job's events do the
 * rest. Resolves with the new job's id, or null when it was refused (and reported).
 * One upload at a time, in order: a recording stopped while a dropped file uploads
 * waits for it instead of being dropped.
 */
export function transcribeFile(file: File): Promise<string | null> {
  const run = uploads.then(() => uploadAndTranscribe(file));
  uploads = run;
  return run;
}

async function uploadAndTranscribe(file: File): Promise<string | null> {
  view.setUploading(file.name);
  view.setRefusedUpload(null);
  try {
    const attachment = await attachments().upload({
      name: file.name,
      mime_type: file.type || 'application/octet-stream',
      data: file,
    });
    view.setAudioNames({ [attachment.attachment_id]: attachment.name });
    const job = await transcriptions().create({
      attachment_id: attachment.attachment_id,
      language: view.language === '' ? null : view.language,
      // No speaker model chosen: "Label speakers" is off, whatever it was before.
      diarization: view.diarization && Boolean(view.settings?.diarization_model),
      word_timestamps: false,
      ...(view.profileId ? { profile_id: view.profileId } : {}),
      // Identical audio is stored once, under the first upload's name; the job keeps this one's.
      // The script rides with the job, so a resumed or retried job writes Chinese the same way.
      metadata: {
        audio_name: file.name,
        ...(mayBeChinese(view.language)
          ? { chinese_script: startingChineseScript(view.chineseScript, i18n.locale) }
          : {}),
      },
    });
    view.upsertJob(job);
    follow(job);
    await openJob(job.job_id);
    return job.job_id;
  } catch (error) {
    // A damaged file is the user's to replace: said where they picked it, and it stays there
    // (a toast went away, half in English, without naming the file).
    const refused = uploadRefusal(error, file.name);
    if (refused) view.setRefusedUpload(refused);
    else reportError(error);
    return null;
  } finally {
    view.setUploading(null);
  }
}

export async function cancelJob(jobId: string): Promise<void> {
  try {
    await transcriptions().cancel(jobId);
  } catch (error) {
    reportError(error);
  }
}

/** A failed or cancelled job goes away for good (the core refuses others). */
export async function deleteJob(jobId: string): Promise<boolean> {
  try {
    await transcriptions().delete(jobId);
    unfollow(jobId);
    view.removeJob(jobId);
    return true;
  } catch (error) {
    reportError(error);
    return false;
  }
}

/**
 * The same request again (after the model host was fixed, say), as a job that replaces the
 * failed one in the list; its id, or null.
 */
export async function retryJob(jobId: string): Promise<string | null> {
  try {
    const again = await transcriptions().retry(jobId);
    view.removeJob(jobId);
    view.upsertJob(again);
    follow(again);
    await openJob(again.job_id);
    return again.job_id;
  } catch (error) {
    reportError(error);
    return null;
  }
}

/** Transcript → note (one transaction in the core), then the note opens in the notebook. */
export async function createNoteFromJob(
  jobId: string,
  options: TranscriptNoteInput,
): Promise<NoteDto | null> {
  try {
    const note = await transcriptions().toNote(jobId, options);
    view.setNotes(jobId, [...view.notesOf(jobId), { note_id: note.note_id, title: note.title }]);
    await refreshAll();
    // Through the address, so Back returns to the recording; the focus goes with the user
    // to the new note (this form leaves the page with the view).
    editor.requestTitleFocus();
    openNoteAt(note.note_id);
    return note;
  } catch (error) {
    reportError(error);
    return null;
  }
}

/** True once stored; a refused host (VALIDATION_FAILED) is reported and false. */
export async function saveModelSource(patch: UpdateAsrSettingsInput): Promise<boolean> {
  try {
    view.setSettings(await transcriptions().updateSettings(patch));
    return true;
  } catch (error) {
    reportError(error);
    return false;
  }
}

/** Leaving the page frees the audio; running jobs stay followed (see `following`). */
export function closeTranscriptionPage(): void {
  view.setAudioUrl(null);
}

// --- citations in notes ------------------------------------------------------------------

export interface CitedBlock extends BlockCitationDto {
  /** The block's text, shortened, so a person knows which part plays. */
  excerpt: string;
  /** Where the block starts in the note body, to follow a revealed line to its passage. */
  start_line: number;
}

/** The audio citations of a note's blocks, in block order; [] for notes not made from a transcript. */
export async function loadNoteCitations(noteId: string): Promise<CitedBlock[]> {
  const citations = await transcriptions().citations(noteId);
  if (citations.length === 0) return [];
  const blocks = await core.notes.blocks(noteId);
  const byId = new Map(blocks.map((block) => [block.block_id, block]));
  return citations.map((citation) => {
    const block = byId.get(citation.block_id);
    return { ...citation, excerpt: excerptOf(block?.text ?? ''), start_line: block?.start_line ?? 0 };
  });
}

function excerptOf(text: string): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length > 80 ? `${plain.slice(0, 79)}…` : plain;
}

/** An object URL for an attachment's audio; the caller revokes it. */
export async function audioUrlOf(attachmentId: string): Promise<string> {
  return URL.createObjectURL(await attachments().blob(attachmentId));
}
