import type { ImportDuplicateAction, ReimportProblem } from '../../contracts/archive';
import type { JobDto } from '../../contracts/jobs';
import { INDEX_REBUILD_JOB_KIND, INDEX_UPDATE_JOB_KIND } from '../../contracts/search';
import { core } from '../api/core-client';
import { reportError } from '../errors';
import { t } from '../i18n';
import { mibText } from '../notes/note-size';
import { refreshAll } from '../notes/notes.service';
import { showBackgroundWrite } from '../editor/editor.service';
import { toasts } from '../toasts/toasts.svelte';
import { downloadBytes } from './download';
import { archiveTooLargeText } from './import-report';
import { showJobEndToast } from './job-end-toast';
import type { TrackedJob } from './job-events';
import { jobs } from './jobs.svelte';
import { isImportableMarkdownPath, isImportablePicturePath } from './markdown-files';

const INDEX_JOB_KINDS: readonly string[] = [INDEX_UPDATE_JOB_KIND, INDEX_REBUILD_JOB_KIND];

/** What every watched job does when it ends: say so, and show the new notes. */
function onJobFinished(job: TrackedJob): void {
  showJobEndToast(job);
  if (job.status === 'completed') {
    void refreshAll();
    // An import may have updated the open note: an editor with nothing unsaved shows it now.
    void showBackgroundWrite();
  } else if ((job.status === 'failed' && job.error) || job.status === 'cancelled') {
    void refreshAll();
  }
}

export function trackJob(job: JobDto, label: string | null = null): void {
  // An import resumed after a reload is still named by its file, in the panel and in what it ends with.
  const fileName = job.input['file_name'];
  jobs.track(job, {
    label: label ?? (typeof fileName === 'string' ? fileName : null),
    onFinished: onJobFinished,
  });
}

function relativePath(file: File): string {
  return file.webkitRelativePath !== '' ? file.webkitRelativePath : file.name;
}

/** "Import folder": every Markdown file's text with its path inside the folder. */
export async function importFolder(
  files: readonly File[],
  onDuplicate: ImportDuplicateAction = 'skip',
): Promise<void> {
  const markdown = files.filter((file) => isImportableMarkdownPath(relativePath(file)));
  if (markdown.length === 0) {
    if (files.length > 0) toasts.show(t('archive.noMarkdownFiles'), { kind: 'info' });
    return;
  }
  try {
    const contents = await Promise.all(
      markdown.map(async (file) => ({ path: relativePath(file), content: await file.text() })),
    );
    const pictures = files
      .filter((file) => isImportablePicturePath(relativePath(file)))
      .map((file) => ({ path: relativePath(file), data: file }));
    const folderName = relativePath(markdown[0] as File).split('/')[0] ?? null;
    const job = await core.archive.importFiles({
      files: [...contents, ...pictures],
      on_duplicate: onDuplicate,
    });
    trackJob(job, folderName);
  } catch (error) {
    reportError(error);
  }
}

/**
 * "Import .zip": the File itself goes to the worker (a Blob is cloned as a
 * handle, not its bytes), which stores and reads it in pieces: the page never
 * holds the archive in memory.
 */
export async function importZip(file: File, onDuplicate: ImportDuplicateAction = 'skip'): Promise<void> {
  try {
    const job = await core.archive.importZip({ data: file, file_name: file.name, on_duplicate: onDuplicate });
    trackJob(job, file.name);
  } catch (error) {
    const tooLarge = archiveTooLargeText(error, file.name);
    if (tooLarge === null) reportError(error);
    else toasts.show(tooLarge, { kind: 'error', code: 'PAYLOAD_TOO_LARGE' });
  }
}

export async function cancelJob(jobId: string): Promise<void> {
  try {
    jobs.update(await core.jobs.cancel(jobId));
  } catch (error) {
    reportError(error);
  }
}

export async function exportAll(): Promise<void> {
  try {
    const { file_name, data, reimport_problems } = await core.archive.exportAll();
    downloadBytes(data, file_name, 'application/zip');
    toasts.show(t('archive.exported', { file: file_name }), { kind: 'success' });
    // Said now, while the notebook is still here: learnt when restoring, it would be too late.
    for (const problem of reimport_problems) {
      toasts.show(reimportProblemText(problem), { kind: 'error', timeoutMs: 0 });
    }
  } catch (error) {
    reportError(error);
  }
}

/** After a reload: keep showing jobs that are still queued or running. */
export async function resumeJobs(): Promise<void> {
  try {
    const [running, queued] = await Promise.all([
      core.jobs.list({ status: 'running' }),
      core.jobs.list({ status: 'queued' }),
    ]);
    for (const job of [...running.items, ...queued.items]) {
      // Search index jobs run on their own (the first build, updates after
      // edits); Settings shows a running rebuild when opened.
      if (INDEX_JOB_KINDS.includes(job.kind)) continue;
      trackJob(job);
    }
  } catch (error) {
    reportError(error);
  }
}

function reimportProblemText(problem: ReimportProblem): string {
  switch (problem.reason) {
    case 'entry_too_large':
      return t('archive.reimport.entryTooLarge', {
        title: problem.title,
        size: mibText(problem.bytes),
        limit: mibText(problem.limit),
      });
    case 'ratio_too_high':
      return t('archive.reimport.ratioTooHigh', { title: problem.title, limit: String(problem.limit) });
    case 'too_many_entries':
      return t('archive.reimport.tooManyEntries', {
        count: String(problem.count),
        limit: String(problem.limit),
      });
    case 'total_too_large':
      return t('archive.reimport.totalTooLarge', {
        size: mibText(problem.bytes),
        limit: mibText(problem.limit),
      });
  }
}
