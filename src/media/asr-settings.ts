import { z } from 'zod';
import type { TransformersAsrEnvironment } from './transformers/transformers-asr-engine';
import { profileIdSchema } from './transcription-contract';

/**
 * The transcription settings a user (or an organisation) chooses: the default
 * profile, where the Whisper files come from, and whether they may be
 * downloaded at all. Stored under their own settings key.
 */

export const ASR_SETTINGS_KEY = 'transcription';

export const HUGGING_FACE_MODEL_HOST = 'https://huggingface.co/';

/**
 * `model_host` is either
 * - an http(s) URL laid out like the Hugging Face hub (`<host>/<model_id>/resolve/main/<file>`):
 *   the hub itself (default) or an organisation's mirror; or
 * - an absolute path on this app's own origin (`/models/`) holding plain model
 *   folders (`/models/<model_id>/<file>`): weights the app serves itself.
 * Credentials, queries and fragments are refused: the host is not a secret store.
 */
export const modelHostSchema = z
  .string()
  .trim()
  .min(1, 'model_host is required')
  .max(500)
  .refine((value) => isUrlHost(value) || isPathHost(value), {
    message: 'model_host must be an http(s) URL (a hub or a mirror) or a path on this app such as /models/',
  })
  .transform((value) => (value.endsWith('/') ? value : `${value}/`));

export const asrSettingsSchema = z.strictObject({
  profile_id: profileIdSchema,
  model_host: modelHostSchema,
  /** False: use cached or app-served files only; never download. */
  allow_remote_models: z.boolean(),
  /**
   * The speaker-labelling (diarization) model, a catalog id
   * (./diarization-models.ts), from the same model host; null: none, and jobs
   * that ask for diarization complete with the DIARIZATION_UNAVAILABLE warning.
   */
  diarization_model: z.string().trim().min(1).max(200).nullable(),
});
export type AsrSettings = z.output<typeof asrSettingsSchema>;

export const updateAsrSettingsSchema = asrSettingsSchema.partial();
export type UpdateAsrSettingsInput = z.input<typeof updateAsrSettingsSchema>;

export const DEFAULT_ASR_SETTINGS: Readonly<AsrSettings> = Object.freeze({
  profile_id: 'default',
  model_host: HUGGING_FACE_MODEL_HOST,
  allow_remote_models: true,
  diarization_model: null,
});

function isUrlHost(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === ''
  );
}

function isPathHost(value: string): boolean {
  return /^\/(?!\/)[^?#\s\\]*$/.test(value) && !value.split('/').includes('..');
}

export function isAppServedHost(modelHost: string): boolean {
  return modelHost.startsWith('/');
}

/**
 * What the ASR engine is told. A path host is read as local model folders
 * (`localModelPath`), with downloads off because there is nowhere else to go;
 * a URL host is a remote host, used only when downloads are allowed (files
 * already in the browser cache are used either way). `wasmPaths` is where the
 * app serves onnxruntime's WASM files, so nothing comes from a CDN.
 */
export function asrEnvironment(
  settings: AsrSettings,
  options: { wasmPaths?: TransformersAsrEnvironment['wasmPaths'] } = {},
): TransformersAsrEnvironment {
  const shared: TransformersAsrEnvironment = {
    useBrowserCache: true,
    ...(options.wasmPaths !== undefined ? { wasmPaths: options.wasmPaths } : {}),
  };
  if (isAppServedHost(settings.model_host)) {
    return {
      ...shared,
      allowLocalModels: true,
      localModelPath: settings.model_host,
      allowRemoteModels: false,
    };
  }
  return {
    ...shared,
    allowLocalModels: false,
    allowRemoteModels: settings.allow_remote_models,
    remoteHost: settings.model_host,
  };
}
