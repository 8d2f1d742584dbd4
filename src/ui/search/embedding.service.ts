import type { EmbeddingSettingsDto } from '../../contracts/embedding';
import type { JobDto } from '../../contracts/jobs';
import { core } from '../api/core-client';
import { errorMessage, reportError } from '../errors';
import { t } from '../i18n';
import type { TrackedJob } from '../jobs/job-events';
import { jobs } from '../jobs/jobs.svelte';
import { toasts } from '../toasts/toasts.svelte';
import { embedding } from './embedding.svelte';
import { refreshIndexStatus } from './search.service';

/** Reads the embedding settings, and follows a download started before (or elsewhere). */
export async function refreshEmbeddingSettings(): Promise<EmbeddingSettingsDto | null> {
  try {
    const settings = await core.embedding.settings();
    embedding.setSettings(settings);
    if (settings.download_job_id !== null && settings.download_job_id !== embedding.downloadJobId) {
      trackDownload(await core.jobs.get(settings.download_job_id));
    }
    return settings;
  } catch (error) {
    reportError(error);
    return null;
  }
}

/**
 * Chooses the embedding model. The built-in one applies at once; another is
 * downloaded in a job whose progress shows here and in the jobs panel. Either
 * way the index status then shows the "rebuild vectors" prompt.
 */
export async function chooseEmbeddingModel(modelId: string): Promise<void> {
  try {
    const { job, settings } = await core.embedding.select({ model_id: modelId });
    embedding.setSettings(settings);
    if (job) trackDownload(job);
    else {
      toasts.show(t('embedding.switched', { model: settings.model_id }), { kind: 'info' });
      await refreshIndexStatus();
    }
  } catch (error) {
    reportError(error);
  }
}

export async function saveModelHost(host: string): Promise<boolean> {
  try {
    embedding.setSettings(await core.embedding.updateSource({ remote_host: host }));
    toasts.show(t('embedding.hostSaved'), { kind: 'success' });
    return true;
  } catch (error) {
    reportError(error);
    return false;
  }
}

function onDownloadFinished(job: TrackedJob, model: string): void {
  if (job.status === 'completed') toasts.show(t('embedding.ready', { model }), { kind: 'success' });
  else if (job.status === 'cancelled') toasts.show(t('embedding.cancelled'), { kind: 'info' });
  else if (job.status === 'failed' && job.error) {
    const reason = errorMessage(job.error) ?? t('errors.generic');
    toasts.show(t('embedding.failed', { reason }), { kind: 'error' });
  }
  void refreshEmbeddingSettings();
  void refreshIndexStatus();
}

export function trackDownload(job: JobDto): void {
  embedding.setDownloadJobId(job.job_id);
  const model = typeof job.input.model_id === 'string' ? job.input.model_id : '';
  jobs.track(job, {
    label: t('embedding.downloadLabel', { model }),
    onFinished: (finished) => onDownloadFinished(finished, model),
  });
}
