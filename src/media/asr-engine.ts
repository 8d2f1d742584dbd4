import type { AsrProfile } from './asr-models';

/**
 * The speech-recognition engine as the transcription job sees it. The real one
 * (src/workers/asr.worker.ts, later) wraps transformers.js'
 * `automatic-speech-recognition` pipeline and loads it lazily inside the ASR
 * worker; nothing here imports transformers.js. Shapes follow that pipeline's
 * output with `return_timestamps`: `chunks` of `{ text, timestamp: [start, end] }`
 * in seconds from the window start, where the last chunk's end may be null.
 */

/** One pipeline chunk: a phrase (or a word, for word timestamps). */
export interface AsrChunk {
  text: string;
  timestamp: [number, number | null];
}

export interface AsrWindowResult {
  /** Detected (or the requested) language, e.g. "en". */
  language: string;
  /** Phrase-level chunks (`return_timestamps: true`). */
  chunks: AsrChunk[];
  /**
   * Word-level chunks (`return_timestamps: 'word'`), when word timestamps were
   * asked for. The pipeline gives words or phrases per call, not both; an engine
   * either runs twice or groups words into phrases itself.
   */
  words?: AsrChunk[];
}

/**
 * transformers.js `progress_callback` data, passed through: `initiate` and
 * `download` per file, `progress` with bytes, `done` per file, `ready` at the end.
 */
export interface AsrLoadProgress {
  status: 'initiate' | 'download' | 'progress' | 'done' | 'ready';
  file?: string;
  loaded?: number;
  total?: number;
  /** 0..100 for the file. */
  progress?: number;
  /** On `download`: whether the file comes over the network or from this device (a cache, a folder). */
  source?: 'network' | 'device';
}

export interface AsrLoadOptions {
  signal: AbortSignal;
  onProgress?: (progress: AsrLoadProgress) => void;
}

export interface AsrTranscribeOptions {
  /** Whisper language code, or null to detect it. */
  language: string | null;
  wordTimestamps: boolean;
  /** Aborting stops the window's decoding and rejects with an AbortError. */
  signal: AbortSignal;
}

export interface AsrEngine {
  /** Loads (or keeps, when already loaded) the profile's model; a no-op on repeat. */
  load(profile: AsrProfile, options: AsrLoadOptions): Promise<void>;
  /** Transcribes up to 30 s of 16 kHz mono audio. */
  transcribeWindow(samples: Float32Array, options: AsrTranscribeOptions): Promise<AsrWindowResult>;
}

/** A speaker turn from a diarization model (pyannote-style segmentation). */
export interface SpeakerTurn {
  speaker: string;
  start: number;
  end: number;
}

/**
 * Speaker diarization over the whole recording (16 kHz mono). Optional: without
 * one, jobs complete with the DIARIZATION_UNAVAILABLE warning (§5.2).
 */
export interface Diarizer {
  /** Profile id shown in `DiarizationStarted`; null when the diarizer has none. */
  readonly profileId: string | null;
  diarize(
    samples: Float32Array,
    options: { sampleRate: number; signal: AbortSignal },
  ): Promise<SpeakerTurn[]>;
}
