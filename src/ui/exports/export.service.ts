import type { EventEnvelope } from '../../contracts/events';
import type { ExportFormat } from '../../contracts/exports';
import { appearance } from '../appearance/appearance.svelte';
import { core, subscribeJob } from '../api/core-client';
import { reportError } from '../errors';
import { downloadBytes } from '../jobs/download';
import { toasts } from '../toasts/toasts.svelte';
import { t } from '../i18n';

const TERMINAL = new Set(['Completed', 'Failed', 'Cancelled']);

/** Waits for the job's terminal event (replayed if it already happened). */
function terminalEvent(jobId: string): Promise<EventEnvelope> {
  return new Promise((resolve) => {
    const stop = subscribeJob(jobId, (event) => {
      if (!TERMINAL.has(event.event)) return;
      stop();
      resolve(event);
    });
  });
}

export async function availableFormats(): Promise<ExportFormat[]> {
  try {
    return await core.exports.formats();
  } catch (error) {
    reportError(error);
    return [];
  }
}

/**
 * Exports a note as a job and downloads the file when it completes. `onJob` gets
 * the job id at once so the menu can offer Cancel while it runs.
 */
export async function exportNote(
  noteId: string,
  format: ExportFormat,
  onJob: (jobId: string) => void,
): Promise<void> {
  try {
    // The file looks like the app does now: the enabled theme, package or built-in.
    const job = await core.exports.create({
      source: { type: 'note', note_id: noteId },
      format,
      options: { theme_id: appearance.themeId },
    });
    onJob(job.job_id);
    const end = await terminalEvent(job.job_id);
    if (end.event === 'Cancelled') {
      toasts.show(t('export.cancelled'), { kind: 'info' });
      return;
    }
    // Failed: `get` carries the job's error envelope, which the error funnel shows.
    const finished = await core.exports.get(job.job_id);
    if (finished.status !== 'completed') {
      if (finished.error) reportError({ error: finished.error });
      return;
    }
    const file = await core.exports.file(job.job_id);
    downloadBytes(file.data, file.file_name, file.mime_type);
    const first = finished.warnings[0];
    toasts.show(
      first === undefined
        ? t('export.done', { file: file.file_name })
        : t('export.warnings', { file: file.file_name, count: finished.warnings.length, first }),
      { kind: first === undefined ? 'success' : 'info' },
    );
  } catch (error) {
    reportError(error);
  }
}

export async function cancelExport(jobId: string): Promise<void> {
  try {
    await core.exports.cancel(jobId);
  } catch (error) {
    reportError(error);
  }
}
