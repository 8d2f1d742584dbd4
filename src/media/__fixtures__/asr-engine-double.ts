import type {
  AsrChunk,
  AsrEngine,
  AsrLoadOptions,
  AsrTranscribeOptions,
  AsrWindowResult,
  Diarizer,
  SpeakerTurn,
} from '../asr-engine';
import type { AsrProfile } from '../asr-models';
import { TARGET_SAMPLE_RATE } from '../resample';
import { DEFAULT_OVERLAP_SECONDS, DEFAULT_WINDOW_SECONDS } from '../windowing';

/**
 * A deterministic stand-in for the Whisper engine, with the pipeline's output
 * shapes (`chunks` of `{ text, timestamp: [start, end | null] }` relative to
 * the window). For unit tests, and for end-to-end runs without model weights.
 */

/** A phrase of the recording, in seconds from its start. */
export interface ScriptedPhrase {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

export interface AsrEngineDoubleOptions {
  /** Language it "detects" when none is requested. */
  language?: string;
  /**
   * What the whole recording says. Window k is taken to start at
   * k * strideSeconds (as planWindows cuts); phrases cut by a window's edge are
   * cut in that window's output too (words and time in proportion), the way
   * Whisper hears half a sentence at a window edge. Without a script each
   * window yields "Window k, part j." every `phraseSeconds`.
   */
  script?: readonly ScriptedPhrase[];
  strideSeconds?: number;
  phraseSeconds?: number;
  /** Odd windows report times this much later, even ones this much earlier. */
  jitterSeconds?: number;
  /** Per-window work time; aborting cuts it short. */
  delayMs?: number;
  /**
   * Window `index` (0-based over the engine's life) waits for this promise
   * before it answers, so a test can hold a job mid-run; aborting cuts it short.
   */
  holdWindow?: (index: number) => Promise<void> | undefined;
  /** load() rejects with this after announcing the first file. */
  failLoad?: Error;
  /** transcribeWindow() rejects with `failure` on this call (0-based). */
  failAtWindow?: number;
  failure?: Error;
  /** Files whose download load() reports, with their sizes in bytes. */
  files?: ReadonlyArray<{ file: string; total: number; source?: 'network' | 'device' }>;
}

export interface AsrDoubleCall {
  index: number;
  sampleCount: number;
  language: string | null;
  wordTimestamps: boolean;
}

const SILENCE_RMS = 1e-4;

export class AsrEngineDouble implements AsrEngine {
  readonly calls: AsrDoubleCall[] = [];
  readonly loads: string[] = [];
  /** Windows that were aborted while running. */
  abortedWindows = 0;
  #loaded: string | null = null;
  readonly #options: AsrEngineDoubleOptions;

  constructor(options: AsrEngineDoubleOptions = {}) {
    this.#options = options;
  }

  get loadedModel(): string | null {
    return this.#loaded;
  }

  async load(profile: AsrProfile, { signal, onProgress }: AsrLoadOptions): Promise<void> {
    signal.throwIfAborted();
    if (this.#loaded === profile.model_id) return;
    this.loads.push(profile.model_id);
    const files = this.#options.files ?? [
      { file: 'onnx/encoder_model_quantized.onnx', total: 10_100_000 },
      { file: 'onnx/decoder_model_merged_quantized.onnx', total: 30_700_000 },
    ];
    for (const [position, { file, total, source }] of files.entries()) {
      onProgress?.({ status: 'initiate', file });
      if (position === 0 && this.#options.failLoad) throw this.#options.failLoad;
      onProgress?.(source === undefined ? { status: 'download', file } : { status: 'download', file, source });
      for (const fraction of [0.25, 0.5, 0.75, 1]) {
        await pause(0, signal);
        const loaded = Math.round(total * fraction);
        onProgress?.({ status: 'progress', file, loaded, total, progress: fraction * 100 });
      }
      onProgress?.({ status: 'done', file });
    }
    onProgress?.({ status: 'ready' });
    this.#loaded = profile.model_id;
  }

  async transcribeWindow(samples: Float32Array, options: AsrTranscribeOptions): Promise<AsrWindowResult> {
    const index = this.calls.length;
    this.calls.push({
      index,
      sampleCount: samples.length,
      language: options.language,
      wordTimestamps: options.wordTimestamps,
    });
    if (this.#loaded === null) throw new Error('transcribeWindow before load');
    try {
      await pause(this.#options.delayMs ?? 0, options.signal);
      const hold = this.#options.holdWindow?.(index);
      if (hold) await untilAborted(hold, options.signal);
    } catch (error) {
      this.abortedWindows++;
      throw error;
    }
    if (index === this.#options.failAtWindow) {
      throw this.#options.failure ?? new Error('ORT session run failed: out of memory');
    }
    const duration = samples.length / TARGET_SAMPLE_RATE;
    const chunks = isSilent(samples)
      ? []
      : this.#options.script
        ? this.#scripted(index, duration)
        : this.#generated(index, duration);
    const result: AsrWindowResult = { language: options.language ?? this.#options.language ?? 'en', chunks };
    if (options.wordTimestamps) result.words = chunks.flatMap(wordsOf);
    return result;
  }

  #generated(index: number, duration: number): AsrChunk[] {
    const step = this.#options.phraseSeconds ?? 5;
    const chunks: AsrChunk[] = [];
    for (let start = 0, part = 1; start < duration; start += step, part++) {
      const end = Math.min(duration, start + step);
      chunks.push({ text: ` Window ${index + 1}, part ${part}.`, timestamp: [start, end] });
    }
    const last = chunks.at(-1);
    if (last) last.timestamp = [last.timestamp[0], null];
    return chunks;
  }

  #scripted(index: number, duration: number): AsrChunk[] {
    const stride = this.#options.strideSeconds ?? DEFAULT_WINDOW_SECONDS - DEFAULT_OVERLAP_SECONDS;
    const windowStart = index * stride;
    const windowEnd = windowStart + duration;
    const jitter = (this.#options.jitterSeconds ?? 0) * (index % 2 === 1 ? 1 : -1);
    const chunks: AsrChunk[] = [];
    for (const phrase of this.#options.script ?? []) {
      if (phrase.end <= windowStart || phrase.start >= windowEnd) continue;
      const words = phrase.text.split(/\s+/).filter((word) => word !== '');
      const length = phrase.end - phrase.start;
      const from = Math.max(phrase.start, windowStart);
      const to = Math.min(phrase.end, windowEnd);
      // Words whose middle falls inside the window are heard.
      const heard = words.filter((_, position) => {
        const middle = phrase.start + ((position + 0.5) / words.length) * length;
        return middle >= from && middle < to;
      });
      if (heard.length === 0) continue;
      const cutAtEnd = phrase.end > windowEnd;
      const start = Math.max(0, from - windowStart + jitter);
      chunks.push({
        text: ` ${heard.join(' ')}`,
        timestamp: [start, cutAtEnd ? null : Math.max(start, to - windowStart + jitter)],
      });
    }
    return chunks;
  }
}

/** Speaker turns taken from a script's `speaker` fields. */
export class DiarizerDouble implements Diarizer {
  readonly profileId = 'diarization-double';
  calls = 0;
  readonly #turns: SpeakerTurn[];
  readonly #failure: Error | undefined;

  constructor(script: readonly ScriptedPhrase[], options: { failure?: Error } = {}) {
    this.#turns = script
      .filter((phrase) => phrase.speaker !== undefined)
      .map((phrase) => ({ speaker: phrase.speaker ?? '', start: phrase.start, end: phrase.end }));
    this.#failure = options.failure;
  }

  async diarize(
    _samples: Float32Array,
    { signal }: { sampleRate: number; signal: AbortSignal },
  ): Promise<SpeakerTurn[]> {
    this.calls++;
    await pause(0, signal);
    if (this.#failure) throw this.#failure;
    return this.#turns.map((turn) => ({ ...turn }));
  }
}

function wordsOf(chunk: AsrChunk): AsrChunk[] {
  const words = chunk.text.split(/\s+/).filter((word) => word !== '');
  const [start, end] = chunk.timestamp;
  const stop = end ?? start + words.length * 0.4;
  const step = words.length > 0 ? (stop - start) / words.length : 0;
  return words.map((word, position) => ({
    text: ` ${word}`,
    timestamp: [start + position * step, start + (position + 1) * step],
  }));
}

function isSilent(samples: Float32Array): boolean {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return samples.length === 0 || Math.sqrt(sum / samples.length) < SILENCE_RMS;
}

/** Waits `ms` (0 = a macrotask turn); rejects with an AbortError as soon as `signal` aborts. */
function untilAborted(hold: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    hold.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abortError = () => new DOMException('The operation was aborted.', 'AbortError');
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
