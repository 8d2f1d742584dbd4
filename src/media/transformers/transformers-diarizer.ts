import { AppError, isAbortError } from '../../contracts/errors';
import type { Diarizer, SpeakerTurn } from '../asr-engine';
import type { DiarizationModelInfo } from '../diarization-models';
import { powersetToTurns, stitchWindows, type DiarizedWindow } from '../speaker-turns';
import { planWindows, type AudioWindow } from '../windowing';
import { raceAbort } from '../../core/abort';
import { withoutGpu } from '../../models/transformers';
import { applyEnvironment, isMissingFiles, type TransformersAsrEnvironment } from './transformers-asr-engine';
import {
  loadTransformers,
  type PostProcessSpeakerDiarization,
  type SegmentationModel,
  type SegmentationProcessor,
  type TransformersDevice,
  type TransformersDiarizationLibrary,
} from './transformers-library';

/**
 * Speaker diarization with a pyannote-style segmentation model through
 * transformers.js: `AutoProcessor` + `AutoModelForAudioFrameClassification`,
 * and the processor's own `post_process_speaker_diarization` (argmax of the
 * powerset classes per frame, runs of one class in seconds).
 *
 * - transformers.js is imported on the first diarization (the same lazy loader
 *   as the Whisper engine), and the model is loaded once and kept.
 * - The recording runs in the model's windows (10 s for pyannote 3.0, the
 *   length it was trained on) that overlap, so the speakers of one window can
 *   be matched to the next (./speaker-turns.ts); labels are `SPEAKER_00`…
 * - WASM (CPU in Node) always: the model is small, and WebGPU gains nothing on
 *   its LSTM while sharing the GPU with Whisper.
 * - Cancellation: checked before each window (one model call is ~10 s of audio).
 * - Errors: load and run failures → DIARIZATION_MODEL_UNAVAILABLE with a
 *   message a person can act on (the library's text stays in `cause`); the job
 *   then completes without speakers and says so in its warnings.
 */

export interface TransformersDiarizerOptions {
  model: DiarizationModelInfo;
  environment?: TransformersAsrEnvironment;
  /** Default: wasm in browsers, cpu in Node. */
  device?: TransformersDevice;
  /** Default: the lazy import of transformers.js. */
  loadLibrary?: () => Promise<TransformersDiarizationLibrary>;
}

interface LoadedSegmentation {
  processor: SegmentationProcessor;
  model: SegmentationModel;
  postProcess: PostProcessSpeakerDiarization;
}

/** Less audio than this (seconds) is shorter than the model's receptive field: no speech to label. */
const MIN_SECONDS = 0.1;

export class TransformersDiarizer implements Diarizer {
  readonly #options: TransformersDiarizerOptions;
  #loading: Promise<LoadedSegmentation> | null = null;

  constructor(options: TransformersDiarizerOptions) {
    this.#options = options;
  }

  get profileId(): string {
    return this.#options.model.model_id;
  }

  async diarize(
    samples: Float32Array,
    { sampleRate, signal }: { sampleRate: number; signal: AbortSignal },
  ): Promise<SpeakerTurn[]> {
    signal.throwIfAborted();
    const loaded = await raceAbort(this.#load(), signal);
    const expected = loaded.processor.feature_extractor?.config?.sampling_rate;
    if (expected !== undefined && expected !== sampleRate) {
      throw new AppError(
        'DIARIZATION_MODEL_UNAVAILABLE',
        `The speaker labelling model expects ${expected} Hz audio, not ${sampleRate} Hz.`,
        { model_id: this.profileId },
      );
    }
    if (samples.length < MIN_SECONDS * sampleRate) return [];
    const windows: DiarizedWindow[] = [];
    for (const window of this.#windows(samples.length, sampleRate)) {
      signal.throwIfAborted();
      windows.push(await this.#diarizeWindow(loaded, samples, window));
    }
    signal.throwIfAborted();
    return stitchWindows(windows);
  }

  /** Frees the model's ONNX session. */
  async dispose(): Promise<void> {
    const loading = this.#loading;
    this.#loading = null;
    const loaded = await loading?.catch(() => undefined);
    await loaded?.model.dispose();
  }

  // -------------------------------------------------------------------------

  /** The model's windows; a short last one starts earlier so that every call sees a full window. */
  #windows(sampleCount: number, sampleRate: number): AudioWindow[] {
    const { window_seconds, overlap_seconds } = this.#options.model;
    const length = Math.round(window_seconds * sampleRate);
    return planWindows(sampleCount, {
      sampleRate,
      windowSeconds: window_seconds,
      overlapSeconds: overlap_seconds,
    }).map((window) => {
      const start = Math.max(0, Math.min(window.start_sample, window.end_sample - length));
      return { ...window, start_sample: start, start_time: start / sampleRate };
    });
  }

  async #diarizeWindow(
    loaded: LoadedSegmentation,
    samples: Float32Array,
    window: AudioWindow,
  ): Promise<DiarizedWindow> {
    const audio = samples.subarray(window.start_sample, window.end_sample);
    try {
      const inputs = await loaded.processor(audio);
      const { logits } = await loaded.model(inputs);
      const [runs = []] = loaded.postProcess(logits, audio.length);
      return {
        start: window.start_time,
        end: window.end_time,
        turns: powersetToTurns(runs, window.start_time),
      };
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new AppError(
        'DIARIZATION_MODEL_UNAVAILABLE',
        `The speaker labelling model "${this.profileId}" failed on this recording.`,
        { model_id: this.profileId, window_start: window.start_time },
        { cause: error },
      );
    }
  }

  #load(): Promise<LoadedSegmentation> {
    // A failed load is forgotten, so the next job tries again (the files may have arrived).
    this.#loading ??= this.#loadModel().catch((error: unknown) => {
      this.#loading = null;
      throw error;
    });
    return this.#loading;
  }

  async #loadModel(): Promise<LoadedSegmentation> {
    const modelId = this.profileId;
    const device = this.#options.device ?? withoutGpu();
    let library: TransformersDiarizationLibrary;
    try {
      library = await (this.#options.loadLibrary ?? loadTransformers)();
    } catch (error) {
      throw new AppError(
        'DIARIZATION_MODEL_UNAVAILABLE',
        'The speaker labelling runtime (transformers.js) could not be loaded.',
        { model_id: modelId },
        { cause: error },
      );
    }
    applyEnvironment(library.env, this.#options.environment ?? {});
    const options = { device, dtype: 'fp32' as const };
    try {
      const [processor, model] = await Promise.all([
        library.AutoProcessor.from_pretrained(modelId, options),
        library.AutoModelForAudioFrameClassification.from_pretrained(modelId, options),
      ]);
      // PyAnnoteProcessor has the post-processor; a bare Processor keeps it on its feature extractor.
      const postProcess =
        processor.post_process_speaker_diarization?.bind(processor) ??
        processor.feature_extractor?.post_process_speaker_diarization?.bind(processor.feature_extractor);
      if (!postProcess) {
        await model.dispose().catch(() => undefined);
        throw new TypeError('the processor has no post_process_speaker_diarization');
      }
      return { processor, model, postProcess };
    } catch (error) {
      const message = isMissingFiles(error)
        ? `The speaker labelling model "${modelId}" is not available: its files are not on this device and could not be downloaded.`
        : `The speaker labelling model "${modelId}" could not be started: it is not a pyannote-style segmentation model transformers.js can run.`;
      throw new AppError(
        'DIARIZATION_MODEL_UNAVAILABLE',
        message,
        { model_id: modelId, device },
        { cause: error },
      );
    }
  }
}
