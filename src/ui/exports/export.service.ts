import type { EventEnvelope } from '../../contracts/events';
import type { ExportCodeTheme, ExportFormat, ExportJob } from '../../contracts/exports';
import type { InstalledTheme } from '../../contracts/themes';
import type { JobProgress } from '../../contracts/jobs';
import { appearance } from '../appearance/appearance.svelte';
import { core, subscribeJob } from '../api/core-client';
import { reportError } from '../errors';
import { downloadBytes } from '../jobs/download';
import { t } from '../i18n';
import type { ChosenExportOptions } from './export-choices';
import { showExportToast } from './export-toast.svelte';
import { summarizeWarnings, WARNINGS_IN_TOAST } from './export-warnings';

const TERMINAL = new Set(['Completed', 'Failed', 'Cancelled']);

/** Waits for the job's terminal event (replayed if it already happened), passing on its progress. */
function terminalEvent(jobId: string, onProgress?: (progress: JobProgress) => void): Promise<EventEnvelope> {
  return new Promise((resolve) => {
    const stop = subscribeJob(jobId, (event) => {
      if (event.event === 'Progress') onProgress?.(event.data as JobProgress);
      if (!TERMINAL.has(event.event)) return;
      stop();
      resolve(event);
    });
  });
}

/** The code colours that match what the user sees: a dark theme gets the dark GitHub colours. */
export function defaultCodeTheme(): ExportCodeTheme {
  return appearance.dark ? 'github-dark' : 'github-light';
}

export async function availableFormats(): Promise<ExportFormat[]> {
  try {
    return await core.exports.formats();
  } catch (error) {
    reportError(error);
    return [];
  }
}

/** The themes an export can be drawn in: the built-in ones and the installed packages. */
export async function availableThemes(): Promise<InstalledTheme[]> {
  try {
    return await core.themes.list();
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
  onProgress?: (progress: JobProgress) => void,
  /**
   * Shows the whole list of warnings when the toast names only the first few: the exporter's
   * words, which the list puts in the user's language as it shows them (and again after a switch).
   */
  onWarnings?: (file: string, warnings: readonly string[]) => void,
  /** The options the user chose; by default the file looks like the app does now. */
  options?: ChosenExportOptions,
  /**
   * The text on the user's screen when it could not be saved first (a conflict, a failed
   * save): the file holds it, not the stored note, and the toast says so.
   */
  onScreen?: { title: string; markdown: string },
): Promise<void> {
  try {
    // Without a choice: the enabled theme, package or built-in, and code in the GitHub
    // colours of the same lightness.
    const job = await core.exports.create({
      source: onScreen ? { type: 'markdown', ...onScreen } : { type: 'note', note_id: noteId },
      format,
      options: options ?? { theme_id: appearance.themeId, code_theme: defaultCodeTheme() },
    });
    onJob(job.job_id);
    const end = await terminalEvent(job.job_id, onProgress);
    if (end.event === 'Cancelled') {
      showExportToast(() => ({ message: t('export.cancelled'), options: { kind: 'info' } }));
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
    const unsavedNote = () => (onScreen ? ` ${t('export.onScreenText')}` : '');
    const { warnings } = finished;
    if (warnings.length === 0) {
      showExportToast(() => ({
        message: `${t('export.done', { file: file.file_name })}${unsavedNote()}`,
        options: { kind: onScreen ? 'info' : 'success' },
      }));
      return;
    }
    const hidden = warnings.length > WARNINGS_IN_TOAST;
    showExportToast(() => ({
      message: `${summarizeWarnings(file.file_name, warnings, t).message}${unsavedNote()}`,
      options: {
        kind: 'info',
        // A list takes longer to read than the usual toast stays.
        timeoutMs: 12_000,
        ...(hidden &&
          onWarnings && {
            action: { label: t('export.showWarnings'), run: () => onWarnings(file.file_name, warnings) },
          }),
      },
    }));
  } catch (error) {
    reportError(error);
  }
}

/** The newest finished exports, whose files can be downloaded again until they expire. */
export async function recentExports(limit = 5): Promise<ExportJob[]> {
  try {
    return (await core.exports.list({ status: 'completed', limit })).items;
  } catch (error) {
    reportError(error);
    return [];
  }
}

/** Downloads a finished export again; an expired one reports EXPORT_FILE_EXPIRED's message. */
export async function downloadExport(jobId: string): Promise<void> {
  try {
    const file = await core.exports.file(jobId);
    downloadBytes(file.data, file.file_name, file.mime_type);
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
