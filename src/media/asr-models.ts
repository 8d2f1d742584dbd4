import { AppError, type AsrDevice, type AsrDtype } from '../contracts';

/**
 * Whisper models the app offers and the profiles a request names by
 * `profile_id` (§5.1: a request picks a profile, never a model path).
 *
 * Download sizes are APPROXIMATE, in MB, for guidance in the UI only: for tiny
 * they are the sums of the hub's encoder + merged-decoder ONNX files
 * (onnx-community/whisper-tiny: 32.9 + 119 MB fp32, 16.5 + 59.6 MB fp16,
 * 10.1 + 30.7 MB q8); for base and small they are scaled from the parameter
 * counts. Tokenizer and config files add about 4 MB. The real sizes arrive
 * with the download progress (`ModelLoading` events carry `total_bytes`).
 */

// The wire names them (a profile's dtype per back end); the catalog and the engine use the same.
export { ASR_DTYPES, type AsrDevice, type AsrDtype } from '../contracts/transcription';

export interface AsrModelInfo {
  /** Hub-style id, resolved by transformers.js under its local model path or cache. */
  model_id: string;
  label: string;
  parameters_millions: number;
  multilingual: boolean;
  /** Approximate download per dtype, MB (see the module note). */
  approx_download_mb: Record<AsrDtype, number>;
}

export const ASR_MODELS: readonly AsrModelInfo[] = [
  {
    model_id: 'onnx-community/whisper-tiny',
    label: 'Whisper tiny (multilingual)',
    parameters_millions: 39,
    multilingual: true,
    approx_download_mb: { fp32: 152, fp16: 76, q8: 41 },
  },
  {
    model_id: 'onnx-community/whisper-base',
    label: 'Whisper base (multilingual)',
    parameters_millions: 74,
    multilingual: true,
    approx_download_mb: { fp32: 290, fp16: 145, q8: 80 },
  },
  {
    model_id: 'onnx-community/whisper-small',
    label: 'Whisper small (multilingual)',
    parameters_millions: 244,
    multilingual: true,
    approx_download_mb: { fp32: 970, fp16: 485, q8: 250 },
  },
];

export interface AsrProfile {
  profile_id: string;
  model_id: string;
  /** Weights per back end: WebGPU runs fp32 well; WASM is far faster on q8. */
  dtype: Record<AsrDevice, AsrDtype>;
}

const profile = (profile_id: string, model_id: string): AsrProfile => ({
  profile_id,
  model_id,
  dtype: { webgpu: 'fp32', wasm: 'q8' },
});

/** `default` is tiny: the smallest download, and usable on WASM-only machines. */
export const ASR_PROFILES: readonly AsrProfile[] = [
  profile('default', 'onnx-community/whisper-tiny'),
  profile('whisper-tiny', 'onnx-community/whisper-tiny'),
  profile('whisper-base', 'onnx-community/whisper-base'),
  profile('whisper-small', 'onnx-community/whisper-small'),
];

export function resolveAsrProfile(
  profileId: string,
  profiles: readonly AsrProfile[] = ASR_PROFILES,
): AsrProfile {
  const found = profiles.find((candidate) => candidate.profile_id === profileId);
  if (!found) {
    throw new AppError(
      'TRANSCRIPTION_PROFILE_NOT_FOUND',
      `There is no transcription profile "${profileId}".`,
      {
        profile_id: profileId,
        available: profiles.map((candidate) => candidate.profile_id),
      },
    );
  }
  return found;
}

export function asrModelInfo(modelId: string): AsrModelInfo | undefined {
  return ASR_MODELS.find((model) => model.model_id === modelId);
}

/** Approximate download of a profile on a back end, MB; undefined for models outside the catalog. */
export function approxDownloadMb(profile: AsrProfile, device: AsrDevice): number | undefined {
  return asrModelInfo(profile.model_id)?.approx_download_mb[profile.dtype[device]];
}
