import type { AsrSettings } from '../contracts';
import type { TransformersAsrEnvironment } from './transformers/transformers-asr-engine';

/**
 * The transcription settings a user (or an organisation) chooses: the default
 * profile, where the Whisper files come from, and whether they may be
 * downloaded at all. Stored under their own settings key.
 */

export const ASR_SETTINGS_KEY = 'transcription';

export const HUGGING_FACE_MODEL_HOST = 'https://huggingface.co/';

export const DEFAULT_ASR_SETTINGS: Readonly<AsrSettings> = Object.freeze({
  profile_id: 'default',
  model_host: HUGGING_FACE_MODEL_HOST,
  allow_remote_models: true,
  diarization_model: null,
});

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
