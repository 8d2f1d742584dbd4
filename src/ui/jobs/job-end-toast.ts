import { errorMessage } from '../errors';
import { t } from '../i18n';
import { toasts } from '../toasts/toasts.svelte';
import { importFailure, importReport } from './import-report';
import { importSummary, jobKindLabel, type TrackedJob } from './job-events';

/**
 * How a job ended, said once in a toast: by the tab that ran it, and by every other tab
 * showing it, where the user may be by then.
 */
export function showJobEndToast(job: TrackedJob): void {
  const file = job.label ?? '';
  if (job.status === 'completed') {
    const text = completedImportText(job.result);
    if (text) toasts.show(text, { kind: 'success' });
  } else if (job.status === 'failed' && job.error && jobKindLabel(job.kind) !== 'import') {
    toasts.show(t('jobs.failed', { reason: errorMessage(job.error) ?? t('errors.generic') }), {
      kind: 'error',
    });
  } else if (job.status === 'failed' && job.error) {
    // By the archive's reason, in the reader's language, with what to do next: the core's
    // message is English and a generic "too large" does not say which note.
    const { text, next } = importFailure(job.error);
    const reason = t('vaultImport.failureNext', { text, next: next ?? t('vaultImport.nothingImported') });
    toasts.show(t('vaultImport.failed', { file, reason }), { kind: 'error', code: job.error.code });
  } else if (job.status === 'cancelled') {
    toasts.show(
      jobKindLabel(job.kind) === 'import' ? t('vaultImport.cancelled', { file }) : t('jobs.cancelled'),
      {
        kind: 'info',
      },
    );
  }
}

/**
 * What a finished import brought in, in the reader's words: the toast says it once, and the
 * job's row keeps saying it, so a finished row reads as done rather than as a bare "×".
 */
export function completedImportText(result: unknown): string | null {
  const report = importReport(result);
  const dedupe = dedupeReport(result);
  if (report && dedupe) {
    // New, updated and skipped are always said; every renamed, repaired or left-out
    // file is listed in the job's report, which the toast points to.
    const notes = t(dedupe.changed > 0 ? 'importDedupe.reportChanged' : 'importDedupe.report', dedupe);
    const counts =
      dedupe.pictures > 0
        ? t('vaultImport.report.withList', {
            counts: notes.replace(/[.。]$/u, ''),
            list: t('vaultImport.report.pictures', { count: dedupe.pictures }),
          })
        : notes;
    const text =
      report.count > 0
        ? t('vaultImport.report.withList', {
            // The joining sentence stop is the language's own.
            counts: counts.replace(/[.。]$/u, ''),
            list: t('vaultImport.report.seeList', { count: report.count }),
          })
        : counts;
    return text;
  } else {
    const summary = importSummary(result);
    if (summary) {
      const key =
        summary.changed > 0
          ? 'jobs.importedWithChanges'
          : summary.skipped > 0
            ? 'jobs.importedWithSkipped'
            : 'jobs.imported';
      const values = {
        count: summary.imported,
        skipped: summary.skipped,
        changed: summary.changed,
        first: summary.first ?? '',
      };
      return t(key, values);
    }
  }
  return null;
}

/**
 * An import's new / updated / skipped counts, and how many skipped ones differ
 * from the notebook's version; null for other jobs (and imports queued before
 * they existed).
 */
function dedupeReport(
  result: unknown,
): { created: number; updated: number; skipped: number; changed: number; pictures: number } | null {
  if (typeof result !== 'object' || result === null) return null;
  const { created, updated, skipped, skipped_changed: changed, pictures } = result as Record<string, unknown>;
  if (typeof created !== 'number' || typeof updated !== 'number' || typeof skipped !== 'number') return null;
  return {
    created,
    updated,
    skipped,
    changed: typeof changed === 'number' ? changed : 0,
    pictures: typeof pictures === 'number' ? pictures : 0,
  };
}
