import { core } from '../api/core-client';
import { reportError } from '../errors';
import { t } from '../i18n';
import { toasts } from '../toasts/toasts.svelte';
import { localModels } from './local-models.svelte';
import { currentModelHost, parseModelHost } from './model-host';

/** Each store's host, read once; a store that cannot be read counts as its default. */
export async function loadModelHost(): Promise<string> {
  const [sources, embedding, transcription] = await Promise.all([
    core.localModels.sources().catch(() => null),
    core.embedding.settings().catch(() => null),
    core.transcriptions.getSettings().catch(() => null),
  ]);
  if (sources) localModels.setSources(sources);
  return currentModelHost({
    webllm: sources?.model_host ?? null,
    embedding: embedding?.remote_host ?? null,
    transcription: transcription?.model_host ?? null,
  });
}

/**
 * Writes the one host into every store that downloads models. A refused value changes none
 * of them; a store that fails to save (its worker cannot start) is reported and the others
 * keep the new host.
 */
export async function saveModelHost(input: string): Promise<boolean> {
  const parsed = parseModelHost(input, location.origin);
  if (!parsed.ok) {
    toasts.show(t('modelHost.invalid'), { kind: 'error' });
    return false;
  }
  const { targets } = parsed;
  const results = await Promise.allSettled([
    core.transcriptions.updateSettings({ model_host: targets.transcription }),
    core.embedding.updateSource({ remote_host: targets.embedding }),
    core.localModels
      .sources()
      .then((sources) =>
        core.localModels.setSources({ model_host: targets.webllm, lib_host: sources.lib_host }),
      )
      .then((sources) => localModels.setSources(sources)),
  ]);
  const failed = results.filter((result) => result.status === 'rejected');
  for (const failure of failed) reportError(failure.reason);
  // Success is said beside the Save button (the form's "Saved"), not a second time in a toast.
  return failed.length === 0;
}
