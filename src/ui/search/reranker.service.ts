import type { JobDto } from '../../contracts/jobs';
import type { RerankerSettingsDto } from '../../contracts/reranker';
import { core } from '../api/core-client';
import { errorMessage, reportError } from '../errors';
import { t } from '../i18n';
import type { TrackedJob } from '../jobs/job-events';
import { jobs } from '../jobs/jobs.svelte';
import { toasts } from '../toasts/toasts.svelte';
import { reranker } from './reranker.svelte';

/** Reads the reranker settings, and follows a download started before (or elsewhere). */
export async function refreshRerankerSettings(): Promise<RerankerSettingsDto | null> {
  try {
    const settings = await core.rerankers.settings();
    reranker.setSettings(settings);
    if (settings.download_job_id !== null && settings.download_job_id !== reranker.downloadJobId) {
      trackRerankerDownload(await core.jobs.get(settings.download_job_id));
    }
    return settings;
  } catch (error) {
    reportError(error);
    return null;
  }
}

/**
 * Chooses the reranker: null turns reranking off at once; a model is
 * downloaded in a job whose progress shows here and in the jobs panel, and
 * reranking starts when it completes.
 */
export async function chooseReranker(modelId: string | null): Promise<void> {
  try {
    const { job, settings } = await core.rerankers.select({ model_id: modelId });
    reranker.setSettings(settings);
    if (job) trackRerankerDownload(job);
    else if (modelId === null) toasts.show(t('reranker.turnedOff'), { kind: 'info' });
  } catch (error) {
    reportError(error);
  }
}

function onDownloadFinished(job: TrackedJob, model: string): void {
  if (job.status === 'completed') toasts.show(t('reranker.ready', { model }), { kind: 'success' });
  else if (job.status === 'cancelled') toasts.show(t('reranker.cancelled'), { kind: 'info' });
  else if (job.status === 'failed' && job.error) {
    const reason = errorMessage(job.error) ?? t('errors.generic');
    toasts.show(t('reranker.failed', { reason }), { kind: 'error' });
  }
  void refreshRerankerSettings();
}

export function trackRerankerDownload(job: JobDto): void {
  reranker.setDownloadJobId(job.job_id);
  const model = typeof job.input.model_id === 'string' ? job.input.model_id : '';
  jobs.track(job, {
    label: t('reranker.downloadLabel', { model }),
    onFinished: (finished) => onDownloadFinished(finished, model),
  });
}
