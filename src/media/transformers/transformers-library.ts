import type { TransformersDevice, TransformersEnvLike } from '../../models/transformers';
import type { AsrDtype } from '../asr-models';

/**
 * The slice of transformers.js (`@huggingface/transformers`) the ASR engine
 * uses, typed structurally: the engine is written against this, the real
 * library is loaded lazily behind it (`loadTransformers`), and unit tests can
 * hand in a double with the same shapes. Shapes are those of transformers.js
 * 4.3's `AutomaticSpeechRecognitionPipeline` and `WhisperForConditionalGeneration`.
 */

/** transformers.js `progress_callback` data (its `ProgressInfo` union, loosely). */
export interface TransformersProgressInfo {
  status: 'initiate' | 'download' | 'progress' | 'progress_total' | 'done' | 'ready';
  name?: string;
  file?: string;
  progress?: number;
  loaded?: number;
  total?: number;
}

export type { TransformersDevice, TransformersEnvLike } from '../../models/transformers';

export interface AsrPipelineLoadOptions {
  device: TransformersDevice;
  dtype: AsrDtype;
  progress_callback: (info: TransformersProgressInfo) => void;
}

/**
 * A logits processor as `generate()` calls it: the ids so far and the next-token
 * logits ([batch, vocab]); it may change the logits in place and returns them.
 * Throwing from one stops generation at that step.
 */
export type LogitsProcessorFunction = (inputIds: bigint[][], logits: LogitsTensor) => LogitsTensor;

export interface LogitsTensor {
  dims: number[];
  data: ArrayLike<number> & { [index: number]: number };
}

export interface AsrPipelineCallOptions {
  return_timestamps: boolean | 'word';
  language?: string;
  task?: 'transcribe' | 'translate';
  /** A fresh array per call: Whisper's generate() pushes its own processors onto it. */
  logits_processor?: LogitsProcessorFunction[];
}

/** One pipeline chunk; the last one's end is null when the window ends mid-phrase. */
export interface AsrPipelineChunk {
  text: string;
  timestamp: [number, number | null];
}

export interface AsrPipelineOutput {
  text: string;
  chunks?: AsrPipelineChunk[];
}

/** `generation_config.json` fields the engine reads. */
export interface WhisperGenerationConfigLike {
  decoder_start_token_id?: number | null;
  is_multilingual?: boolean | null;
  lang_to_id?: Record<string, number> | null;
}

export interface TokenIdTensor {
  tolist(): unknown[];
}

export interface AsrPipeline {
  (audio: Float32Array, options: AsrPipelineCallOptions): Promise<AsrPipelineOutput>;
  model: {
    generation_config: WhisperGenerationConfigLike | null;
    generate(options: {
      inputs: unknown;
      decoder_input_ids: number[];
      max_new_tokens: number;
      logits_processor: LogitsProcessorFunction[];
    }): Promise<unknown>;
  };
  processor: (audio: Float32Array) => Promise<{ input_features: unknown }>;
  dispose(): Promise<void>;
}

export interface TransformersAsrLibrary {
  env: TransformersEnvLike;
  pipeline(
    task: 'automatic-speech-recognition',
    model: string,
    options: AsrPipelineLoadOptions,
  ): Promise<AsrPipeline>;
}

/** A logits tensor as transformers.js returns it: [batch, frames, classes]. */
export interface FrameLogits {
  dims: number[];
  tolist(): unknown[];
}

/** `PyAnnoteProcessor` (or a bare processor around `PyAnnoteFeatureExtractor`). */
export interface SegmentationProcessor {
  (audio: Float32Array): Promise<Record<string, unknown>>;
  post_process_speaker_diarization?: PostProcessSpeakerDiarization;
  feature_extractor?: {
    config?: { sampling_rate?: number };
    post_process_speaker_diarization?: PostProcessSpeakerDiarization;
  };
}

/** Runs of one powerset class per batch item, in seconds from the audio's start. */
export type PostProcessSpeakerDiarization = (
  logits: FrameLogits,
  numSamples: number,
) => Array<Array<{ id: number; start: number; end: number; confidence: number }>>;

export interface SegmentationModel {
  (inputs: Record<string, unknown>): Promise<{ logits: FrameLogits }>;
  dispose(): Promise<unknown>;
}

export interface PretrainedLoadOptions {
  device: TransformersDevice;
  dtype: AsrDtype;
  progress_callback?: (info: TransformersProgressInfo) => void;
}

/** The slice of transformers.js a pyannote-style segmentation model needs. */
export interface TransformersDiarizationLibrary {
  env: TransformersEnvLike;
  AutoProcessor: {
    from_pretrained(model: string, options: PretrainedLoadOptions): Promise<SegmentationProcessor>;
  };
  AutoModelForAudioFrameClassification: {
    from_pretrained(model: string, options: PretrainedLoadOptions): Promise<SegmentationModel>;
  };
}

export type TransformersLibrary = TransformersAsrLibrary & TransformersDiarizationLibrary;

/**
 * Loads transformers.js on first use (a dynamic import: the library and
 * onnxruntime stay out of every bundle until a transcription needs them).
 */
export async function loadTransformers(): Promise<TransformersLibrary> {
  const library = await import('@huggingface/transformers');
  return {
    env: library.env as unknown as TransformersEnvLike,
    // The library's pipeline() is typed per task with overloads too wide to name
    // here; the call is checked against the shapes above by the engine's tests
    // on a real (tiny) Whisper model.
    pipeline: (task, model, options) =>
      library.pipeline(task, model, options) as unknown as Promise<AsrPipeline>,
    // Checked the same way, on a tiny pyannote-shaped model (transformers-diarizer.test.ts).
    AutoProcessor: library.AutoProcessor as unknown as TransformersDiarizationLibrary['AutoProcessor'],
    AutoModelForAudioFrameClassification:
      library.AutoModelForAudioFrameClassification as unknown as TransformersDiarizationLibrary['AutoModelForAudioFrameClassification'],
  };
}
