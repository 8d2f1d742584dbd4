import { t } from '../i18n';
import type { JobDto } from '../../contracts/jobs';
import { core } from '../api/core-client';
import { errorDetails, errorMessage, reportError } from '../errors';
import { cancelJob } from '../jobs/archive.service';
import { jobs } from '../jobs/jobs.svelte';
import { toasts } from '../toasts/toasts.svelte';
import { localModels } from './local-models.svelte';

/** A refusal (device, quota, host) in the reader's language, chosen by its code. */
function plainMessage(error: unknown): string | null {
  return errorMessage(error);
}

/** Reads the catalog, what is downloaded and what this device can run; follows running downloads. */
export async function loadLocalModels(): Promise<void> {
  try {
    const data = await core.localModels.list();
    localModels.setData(data);
    for (const item of data.items) {
      if (item.download_job_id && !jobs.get(item.download_job_id)) {
        follow(await core.jobs.get(item.download_job_id), item.model, item.display_name);
      }
    }
  } catch (error) {
    localModels.setData(null, plainMessage(error));
  }
}

/** Shows the download in the job panel; when it ends, says so and refreshes the list. */
function follow(job: JobDto, model: string, name: string): void {
  jobs.track(job, {
    label: t('local.downloadLabel', { name }),
    onFinished: (finished) => {
      if (finished.status === 'completed') toasts.show(t('local.ready', { name }), { kind: 'success' });
      else if (finished.status === 'failed' && finished.error)
        localModels.setError(model, errorDetails(finished.error));
      void loadLocalModels();
    },
  });
}

/** Starts (or rejoins) the model's download job; a refusal is shown beside the model. */
export async function downloadModel(model: string, name: string): Promise<void> {
  localModels.setError(model, null);
  try {
    const job = await core.localModels.download(model);
    follow(job, model, name);
    await loadLocalModels();
  } catch (error) {
    localModels.setError(model, errorDetails(error));
  }
}

export async function cancelModelDownload(jobId: string): Promise<void> {
  await cancelJob(jobId);
}

export async function deleteModel(model: string, name: string): Promise<void> {
  try {
    await core.localModels.delete(model);
    toasts.show(t('local.deleted', { name }), { kind: 'info' });
  } catch (error) {
    reportError(error);
  }
  await loadLocalModels();
}

export async function loadSources(): Promise<void> {
  try {
    localModels.setSources(await core.localModels.sources());
  } catch (error) {
    reportError(error);
  }
}

export async function saveSources(modelHost: string, libHost: string): Promise<boolean> {
  try {
    localModels.setSources(
      await core.localModels.setSources({ model_host: modelHost || null, lib_host: libHost || null }),
    );
    toasts.show(t('local.sourcesSaved'), { kind: 'success' });
    return true;
  } catch (error) {
    reportError(error);
    return false;
  }
}
