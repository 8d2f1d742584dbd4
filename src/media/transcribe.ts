import { AppError, isAbortError, parseInput, type ErrorCode } from '../contracts';
import type { JobContext, JobHandler } from '../core/job-runtime';
import { decodeAudio, durationOf, type AudioDecoder } from './audio-decoders';
import type { AsrEngine, AsrLoadProgress, Diarizer, SpeakerTurn } from './asr-engine';
import { resolveAsrProfile, type AsrProfile } from './asr-models';
import { chineseScriptOf, TranscriptScript, type ScriptConverterLoader } from './chinese-script';
import { TARGET_SAMPLE_RATE, toMono16k } from './resample';
import { diarizationStart, resumedSpeakerTurns } from './resume-speakers';
import {
  afterSeam,
  firstWindowToRun,
  NO_RESUME,
  seamOf,
  type TranscriptionResume,
} from './transcribe-resume';
import {
  createTranscriptionSchema,
  type DiarizationCompletedEventData,
  type DiarizationStartedEventData,
  type ModelLoadingEventData,
  type TranscriptionResult,
  type TranscriptionStartedEventData,
  type TranscriptSegment,
} from '../contracts';
import {
  joinTexts,
  mergeWindowTranscripts,
  planWindows,
  windowSamples,
  type AudioWindow,
  type WindowingOptions,
  type WindowTranscript,
} from './windowing';

export const TRANSCRIPTION_JOB_KIND = 'transcription';

export interface LoadedAudio {
  bytes: Uint8Array;
  mime_type: string;
  name: string;
}

export interface TranscriptionDeps {
  /** The attachment's bytes; undefined (or ATTACHMENT_NOT_FOUND) when it does not exist. */
  loadAudio(attachmentId: string): Promise<LoadedAudio | undefined>;
  decoder: AudioDecoder;
  engine: AsrEngine;
  /** Without one, jobs that ask for diarization complete with DIARIZATION_UNAVAILABLE. */
  diarizer?: Diarizer | null;
  profiles?: readonly AsrProfile[];
  windowing?: WindowingOptions;
  /** Makes the converter a Chinese job's script needs (`metadata.chinese_script`). Default: OpenCC, loaded lazily. */
  scriptConverter?: ScriptConverterLoader;
  /**
   * What an earlier run of this job finished (see transcribe-resume.ts). `published`: its
   * segments are in this job's events already; false (a retry's new job), they are
   * published once, in a first `Progress`, so the job's own events hold the whole transcript.
   */
  resume?: TranscriptionResume & { published: boolean };
}

/**
 * The transcription job body. Events, in order: `ModelLoading` (download
 * progress, then `ready`), `DiarizationStarted`/`DiarizationCompleted` when
 * diarization was asked for and a diarizer exists, `TranscriptionStarted`, one
 * `Progress` per window (phase `transcribing`, current/total windows, and
 * `segments`: the segments no later window can change, see settledSegments); the
 * runtime adds `Queued`, `Started` and the terminal event. The signal is checked
 * between steps and handed to the engine, which stops inside a window.
 *
 * With `deps.resume` the segments already done are kept and the windows from the seam
 * on are transcribed (`TranscriptionStarted` then says `resumed_from_seconds`); each
 * `Progress` also says the language its window heard (`detected_language`), which a
 * resumed run counts for the windows it does not hear again.
 *
 * The audio is decoded before the model loads, so an unreadable file never
 * costs a model download.
 */
export async function runTranscription(
  context: JobContext<unknown>,
  deps: TranscriptionDeps,
): Promise<TranscriptionResult> {
  const { signal } = context;
  const request = parseInput(
    createTranscriptionSchema,
    context.input,
    'The transcription request is not valid.',
  );
  const profile = resolveAsrProfile(request.profile_id, deps.profiles);
  const warnings: string[] = [];

  const file = await guard(
    () => deps.loadAudio(request.attachment_id),
    signal,
    'TRANSCRIPTION_FAILED',
    'The audio attachment could not be read.',
  );
  if (!file) {
    throw new AppError('ATTACHMENT_NOT_FOUND', 'The audio attachment does not exist.', {
      attachment_id: request.attachment_id,
    });
  }
  signal.throwIfAborted();
  const { audio } = await guard(
    () => decodeAudio(file.bytes, { mime_type: file.mime_type, name: file.name }, deps.decoder),
    signal,
    'UNSUPPORTED_AUDIO_FORMAT',
    'The audio could not be decoded.',
  );
  signal.throwIfAborted();
  const samples = toMono16k(audio);
  const duration = durationOf(audio);
  signal.throwIfAborted();

  await loadModel(context, deps.engine, profile);

  const resume = deps.resume ?? { ...NO_RESUME, published: true };
  const kept = resume.segments;

  let turns: SpeakerTurn[] = [];
  if (request.diarization) {
    // A resumed run labels only what it transcribes, matched to the kept speakers.
    const from = diarizationStart(kept);
    const heard = from > 0 ? samples.subarray(Math.floor(from * TARGET_SAMPLE_RATE)) : samples;
    const diarized = deps.diarizer ? await diarize(context, deps.diarizer, heard) : undefined;
    if (diarized) turns = from > 0 ? resumedSpeakerTurns(diarized, from, kept) : diarized;
    else warnings.push('DIARIZATION_UNAVAILABLE');
  }

  const windows = planWindows(samples.length, { ...deps.windowing, sampleRate: TARGET_SAMPLE_RATE });
  const first = firstWindowToRun(windows, resume);
  const started: TranscriptionStartedEventData = {
    profile_id: profile.profile_id,
    model_id: profile.model_id,
    language: request.language,
    duration_seconds: duration,
    window_count: windows.length,
  };
  await context.emit(
    'TranscriptionStarted',
    kept.length > 0 ? { ...started, resumed_from_seconds: seamOf(kept) } : started,
  );
  if (kept.length > 0 && !resume.published) {
    await context.progress(
      { phase: 'transcribing', current: first, total: windows.length },
      { segments: kept },
    );
  }

  // A Chinese transcript in the script the job asks for (chinese-script.ts). The segments the
  // resume keeps were converted when their run published them.
  const script = new TranscriptScript(chineseScriptOf(request.metadata), deps.scriptConverter);
  const windowLanguages = new Map<number, string>(resume.languages);
  const languageOf = (segment: TranscriptSegment): string | null =>
    request.language ?? languageAt(windows, windowLanguages, segment.start_time);
  const inScript = (segments: readonly TranscriptSegment[]) => script.apply(segments, languageOf);

  const transcripts: WindowTranscript[] = [];
  const detected = new Map<string, number>();
  for (const [index, language] of resume.languages) {
    if (index < first) detected.set(language, (detected.get(language) ?? 0) + 1);
  }
  let published = 0;
  for (const window of windows.slice(first)) {
    signal.throwIfAborted();
    const result = await guard(
      () =>
        deps.engine.transcribeWindow(windowSamples(samples, window), {
          language: request.language,
          wordTimestamps: request.word_timestamps,
          signal,
        }),
      signal,
      'TRANSCRIPTION_FAILED',
      'Transcription failed.',
      { window: window.index, start_time: window.start_time },
    );
    transcripts.push({ window, chunks: result.chunks, ...(result.words ? { words: result.words } : {}) });
    if (result.language) {
      detected.set(result.language, (detected.get(result.language) ?? 0) + 1);
      windowLanguages.set(window.index, result.language);
    }
    const settled = settledSegments(transcripts, windows[window.index + 1], duration, published, resume);
    published += settled.length;
    const live = await inScript(settled);
    await context.progress(
      { phase: 'transcribing', current: window.index + 1, total: windows.length },
      {
        segments: turns.length > 0 ? assignSpeakers(live, turns) : live,
        detected_language: result.language ?? null,
      },
    );
  }
  signal.throwIfAborted();

  const merged = await inScript(afterSeam(mergeWindowTranscripts(transcripts, { duration }), resume));
  const segments = [...kept, ...(turns.length > 0 ? assignSpeakers(merged, turns) : merged)];
  if (script.unavailable) warnings.push('CHINESE_SCRIPT_UNAVAILABLE');
  return {
    language: request.language ?? mostFrequent(detected),
    segments,
    text: joinTexts(segments.map((segment) => segment.text)),
    warnings,
  };
}

/**
 * Live segments: no later window can change a segment that ends this far
 * before the next window starts (phrases only merge across a seam when they
 * touch within half a second or share time), so those are published in the
 * window's `Progress` event. The merge of every window so far is a prefix of
 * the final transcript up to that point: same order, same ids. The
 * `Completed` result stays the authoritative transcript.
 */
const SETTLED_MARGIN_SECONDS = 1;

function settledSegments(
  transcripts: readonly WindowTranscript[],
  next: { start_time: number } | undefined,
  duration: number,
  published: number,
  resume: TranscriptionResume,
): TranscriptSegment[] {
  const merged = afterSeam(mergeWindowTranscripts(transcripts, { duration }), resume);
  const horizon = next ? next.start_time - SETTLED_MARGIN_SECONDS : Number.POSITIVE_INFINITY;
  let settled = published;
  while (settled < merged.length && (merged[settled]?.end_time ?? Infinity) <= horizon) settled++;
  return merged.slice(published, settled);
}

/** The job handler for the runtime; one transcription at a time (one model, one worker). */
export function transcriptionJobHandler(
  deps: TranscriptionDeps,
): JobHandler<Record<string, unknown>, TranscriptionResult> {
  return {
    kind: TRANSCRIPTION_JOB_KIND,
    concurrency: 1,
    run: (context) => runTranscription(context, deps),
  };
}

async function loadModel(
  context: JobContext<unknown>,
  engine: AsrEngine,
  profile: AsrProfile,
): Promise<void> {
  const reporter = new ModelLoadingReporter(context, profile);
  try {
    await guard(
      () => engine.load(profile, { signal: context.signal, onProgress: (update) => reporter.update(update) }),
      context.signal,
      'TRANSCRIPTION_MODEL_UNAVAILABLE',
      'The speech recognition model could not be loaded.',
      { profile_id: profile.profile_id, model_id: profile.model_id },
    );
  } catch (error) {
    await reporter.settled().catch(() => undefined);
    throw error;
  }
  await reporter.ready();
}

/**
 * Turns the engine's progress callbacks (synchronous, many per second) into
 * `ModelLoading` events, published in order: one per file status change and
 * one per whole percent of a file. `percent` is over the files whose size is
 * known so far, so it can step back when the next file starts.
 */
class ModelLoadingReporter {
  readonly #context: JobContext<unknown>;
  readonly #profile: AsrProfile;
  readonly #files = new Map<
    string,
    { loaded: number; total: number | null; percent: number; source?: 'network' | 'device' }
  >();
  #chain: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(context: JobContext<unknown>, profile: AsrProfile) {
    this.#context = context;
    this.#profile = profile;
  }

  update(progress: AsrLoadProgress): void {
    if (progress.status === 'ready') return; // published by ready(), once, after load resolves
    const name = progress.file ?? null;
    const file =
      name === null ? undefined : (this.#files.get(name) ?? { loaded: 0, total: null, percent: -1 });
    if (name !== null && file) {
      if (progress.total !== undefined) file.total = progress.total;
      if (progress.loaded !== undefined) file.loaded = progress.loaded;
      if (progress.status === 'done' && file.total !== null) file.loaded = file.total;
      if (progress.source !== undefined) file.source = progress.source;
      this.#files.set(name, file);
      if (progress.status === 'progress') {
        const percent = file.total ? Math.floor((100 * file.loaded) / file.total) : -1;
        if (percent <= file.percent) return;
        file.percent = percent;
      }
    }
    this.#publish({
      profile_id: this.#profile.profile_id,
      model_id: this.#profile.model_id,
      status: progress.status,
      file: name,
      loaded_bytes: file?.loaded ?? null,
      total_bytes: file?.total ?? null,
      percent: this.#percent(),
      source: this.#source(),
    });
  }

  async settled(): Promise<void> {
    await this.#chain;
    if (this.#failure !== undefined) throw this.#failure;
  }

  async ready(): Promise<void> {
    this.#publish({
      profile_id: this.#profile.profile_id,
      model_id: this.#profile.model_id,
      status: 'ready',
      file: null,
      loaded_bytes: null,
      total_bytes: null,
      percent: 100,
      source: this.#source(),
    });
    await this.settled();
  }

  #percent(): number | null {
    let loaded = 0;
    let total = 0;
    for (const file of this.#files.values()) {
      if (file.total === null || file.total <= 0) continue;
      loaded += Math.min(file.loaded, file.total);
      total += file.total;
    }
    return total > 0 ? Math.round((loaded / total) * 1000) / 10 : null;
  }

  /** `network` once any file is downloaded; `device` while every file so far was read here. */
  #source(): 'network' | 'device' | null {
    let source: 'network' | 'device' | null = null;
    for (const file of this.#files.values()) {
      if (file.source === 'network') return 'network';
      if (file.source === 'device') source = 'device';
    }
    return source;
  }

  #publish(data: ModelLoadingEventData): void {
    this.#chain = this.#chain
      .then(() => this.#context.emit('ModelLoading', data))
      .catch((error: unknown) => {
        this.#failure ??= error;
      });
  }
}

/** Speaker turns, or undefined when the diarizer failed (the transcript goes on without speakers). */
async function diarize(
  context: JobContext<unknown>,
  diarizer: Diarizer,
  samples: Float32Array,
): Promise<SpeakerTurn[] | undefined> {
  await context.emit('DiarizationStarted', {
    profile_id: diarizer.profileId,
  } satisfies DiarizationStartedEventData);
  let turns: SpeakerTurn[];
  try {
    turns = await diarizer.diarize(samples, { sampleRate: TARGET_SAMPLE_RATE, signal: context.signal });
  } catch (error) {
    if (context.signal.aborted || isAbortError(error)) throw error;
    const message =
      error instanceof AppError ? error.message : 'The speaker diarization model could not be used.';
    await context.emit('DiarizationCompleted', {
      status: 'failed',
      speaker_count: 0,
      turn_count: 0,
      error: { code: 'DIARIZATION_MODEL_UNAVAILABLE', message },
    } satisfies DiarizationCompletedEventData);
    return undefined;
  }
  const sorted = turns.filter((turn) => turn.end > turn.start).sort((a, b) => a.start - b.start);
  await context.emit('DiarizationCompleted', {
    status: 'completed',
    speaker_count: new Set(sorted.map((turn) => turn.speaker)).size,
    turn_count: sorted.length,
    error: null,
  } satisfies DiarizationCompletedEventData);
  return sorted;
}

/** Each segment gets the speaker whose turns overlap it most; none when no turn touches it. */
export function assignSpeakers(
  segments: readonly TranscriptSegment[],
  turns: readonly SpeakerTurn[],
): TranscriptSegment[] {
  return segments.map((segment) => {
    const overlap = new Map<string, number>();
    for (const turn of turns) {
      const shared = Math.min(segment.end_time, turn.end) - Math.max(segment.start_time, turn.start);
      if (shared > 0) overlap.set(turn.speaker, (overlap.get(turn.speaker) ?? 0) + shared);
    }
    let speaker: string | null = null;
    let best = 0;
    for (const [candidate, shared] of overlap) {
      if (shared > best) [speaker, best] = [candidate, shared];
    }
    return { ...segment, speaker };
  });
}

/** The language heard in the first window that holds this time (null: none detected there). */
function languageAt(
  windows: readonly AudioWindow[],
  languages: ReadonlyMap<number, string>,
  seconds: number,
): string | null {
  const window = windows.find((candidate) => candidate.end_time > seconds) ?? windows.at(-1);
  return window ? (languages.get(window.index) ?? null) : null;
}

function mostFrequent(counts: ReadonlyMap<string, number>): string | null {
  let best: string | null = null;
  let count = 0;
  for (const [value, seen] of counts) {
    if (seen > count) [best, count] = [value, seen];
  }
  return best;
}

/**
 * Runs a step; an abort stays an abort, an AppError keeps its code (gaining
 * the step's details), anything else becomes `code` with a safe message
 * (third-party text stays out, §4.2).
 */
async function guard<T>(
  step: () => Promise<T>,
  signal: AbortSignal,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (signal.aborted || isAbortError(error)) throw error;
    // An engine's own AppError keeps its code and message; the step's details
    // (which window, where in the audio) are added so a failure can be located.
    if (error instanceof AppError) {
      throw new AppError(error.code, error.message, { ...details, ...error.details }, { cause: error });
    }
    throw new AppError(code, message, details, { cause: error });
  }
}
