import { AppError } from '../contracts/errors';

/**
 * Speaker-diarization models the app offers: pyannote-style segmentation
 * models run by transformers.js (`AutoModelForAudioFrameClassification`). A
 * setting names one by `model_id` (or none); requests only say
 * `diarization: true` (§5.1: no model paths in requests).
 *
 * pyannote segmentation 3.0 has about 1.5 M parameters; its fp32 ONNX file is
 * about 6 MB (APPROXIMATE, for guidance in the UI; the download progress has
 * the real size). fp32 on every back end: the file is small, and its
 * SincNet + LSTM layers are the part quantization hurts most.
 */

export interface DiarizationModelInfo {
  model_id: string;
  label: string;
  parameters_millions: number;
  approx_download_mb: number;
  /** Seconds per model call, and the overlap used to match speakers between calls. */
  window_seconds: number;
  overlap_seconds: number;
}

export const DIARIZATION_MODELS: readonly DiarizationModelInfo[] = [
  {
    model_id: 'onnx-community/pyannote-segmentation-3.0',
    label: 'pyannote segmentation 3.0',
    parameters_millions: 1.5,
    approx_download_mb: 6,
    // The model was trained on 10 s chunks: its speaker numbering holds within one.
    window_seconds: 10,
    overlap_seconds: 2.5,
  },
];

export function resolveDiarizationModel(
  modelId: string,
  models: readonly DiarizationModelInfo[] = DIARIZATION_MODELS,
): DiarizationModelInfo {
  const found = models.find((model) => model.model_id === modelId);
  if (!found) {
    throw new AppError('DIARIZATION_MODEL_UNAVAILABLE', `There is no speaker labelling model "${modelId}".`, {
      model_id: modelId,
      available: models.map((model) => model.model_id),
    });
  }
  return found;
}
