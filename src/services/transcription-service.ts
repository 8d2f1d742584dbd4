import { z } from 'zod';
import {
  AppError,
  asrSettingsSchema,
  createTranscriptionSchema,
  listTranscriptionsSchema,
  parseInput,
  toTranscriptionJob,
  updateAsrSettingsSchema,
  type AsrProfileDto,
  type AsrSettings,
  type BlockCitationDto,
  type CreateTranscriptionInput,
  type DiarizationModelDto,
  type JobDto,
  type ListTranscriptionsInput,
  type NoteDto,
  type OffsetPage,
  type OperationResponse,
  type TranscriptionJob,
  type TranscriptionResult,
  type TranscriptNoteInput,
  type TranscriptSegment,
  type UpdateAsrSettingsInput,
} from '../contracts';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import type {
  AttachmentRepository,
  BlockCitationRepository,
  NotesRepository,
  SettingsRepository,
} from '../db';
import {
  ASR_MODELS,
  ASR_PROFILES,
  ASR_SETTINGS_KEY,
  AudioDecoderChain,
  DEFAULT_OVERLAP_SECONDS,
  DEFAULT_WINDOW_SECONDS,
  DIARIZATION_MODELS,
  DEFAULT_ASR_SETTINGS,
  TRANSCRIPTION_JOB_KIND,
  WavDecoder,
  WebAudioDecoder,
  asrEnvironment,
  claimedContainer,
  containerLabel,
  resolveAsrProfile,
  runTranscription,
  SUPPORTED_FORMATS_LABEL,
  transcriptToNote,
  type AsrEngine,
  type AsrProfile,
  type AudioDecoder,
  type AudioFormat,
  type DecodedAudio,
  type DiarizationModelInfo,
  type Diarizer,
  type WindowingOptions,
} from '../media';
import type { TransformersAsrEnvironment } from '../media/transformers';
import { resumeFromEvents, type StoredEvent, type TranscriptionResume } from '../media/transcribe-resume';

/**
 * Transcription (the contract's §5, Multimodal / Transcription) as the app's service: the
 * routes of §5.1-§5.4 become methods with the same DTOs. A job runs in the job
 * runtime (kind `transcription`, one at a time); its id is the event resource
 * (`events.subscribe(job_id, ...)`).
 *
 * Our extension: each `Progress` event carries `segments`, the segments of the
 * transcript that no later window can change (live segments); together they
 * are the final transcript, which `Completed` and `get` carry in full.
 */

/** PCM as the page's Web Audio decoder returns it (buffers transferred, not copied). */
export interface PagePcm {
  sampleRate: number;
  channels: Float32Array[];
}

/** `decodeAudioData` on the page: Web Audio does not exist in workers. */
export type PageDecodeAudio = (data: ArrayBuffer) => Promise<PagePcm>;

export type AsrEngineFactory = (environment: TransformersAsrEnvironment) => AsrEngine & {
  dispose?(): Promise<void>;
};

/**
 * Makes the diarizer for the settings' model, next to the engine made for the
 * same model source (the app: a diarizer in the same ASR worker).
 */
export type DiarizerFactory = (context: {
  engine: AsrEngine;
  environment: TransformersAsrEnvironment;
  model: DiarizationModelInfo;
}) => Diarizer & { dispose?(): Promise<void> };

export interface TranscriptionServiceDeps {
  runtime: JobRuntime;
  attachments: AttachmentRepository;
  notes: NotesRepository;
  citations: BlockCitationRepository;
  settings: SettingsRepository;
  /** A fixed engine (tests), or one made for the settings' model source (the app: the ASR worker). */
  engine: AsrEngine | AsrEngineFactory;
  /**
   * A fixed diarizer (tests: used for every job that asks for diarization), or
   * a factory for the model the settings name in `diarization_model` (none
   * named: no diarizer, and the DIARIZATION_UNAVAILABLE warning).
   */
  diarizer?: Diarizer | DiarizerFactory | null;
  /** The diarization models `diarization_model` may name. Default: DIARIZATION_MODELS. */
  diarizationModels?: readonly DiarizationModelInfo[];
  profiles?: readonly AsrProfile[];
  windowing?: WindowingOptions;
  /** Where the app serves onnxruntime's WASM file. */
  wasmPaths?: TransformersAsrEnvironment['wasmPaths'];
}

/**
 * A job as the contract shows it, plus the §5.1 `metadata` it was created with. The page keeps
 * the name of the file the user picked there (`audio_name`): identical audio is stored once,
 * under the first upload's name, so the attachment cannot say what this upload was called.
 */
export type TranscriptionJobView = TranscriptionJob & { metadata: Record<string, unknown> };

/** A note made from a transcript (§5.4), as the job's page links to it. */
export interface TranscriptNoteRef {
  note_id: string;
  title: string;
}

/** Settings key holding the ids of the notes made from a job, oldest first. */
const NOTES_KEY_PREFIX = 'transcription.notes.';

const jobIdSchema = z.string().min(1, 'job_id is required').max(200);
const noteIdSchema = z.string().min(1, 'note_id is required').max(200);

export class TranscriptionService {
  readonly #deps: TranscriptionServiceDeps;
  readonly #profiles: readonly AsrProfile[];
  readonly #diarizationModels: readonly DiarizationModelInfo[];
  #diarizer: { key: string; diarizer: Diarizer & { dispose?(): Promise<void> } } | null = null;
  #pageDecoder: AudioDecoder | null = null;
  #engine: { key: string; engine: AsrEngine & { dispose?(): Promise<void> } } | null = null;
  readonly #retrying = new Set<string>();
  #noteWrites: Promise<void> = Promise.resolve();

  constructor(deps: TranscriptionServiceDeps) {
    this.#deps = deps;
    this.#profiles = deps.profiles ?? ASR_PROFILES;
    this.#diarizationModels = deps.diarizationModels ?? DIARIZATION_MODELS;
    deps.runtime.register({
      kind: TRANSCRIPTION_JOB_KIND,
      // One model in one worker: transcriptions run one at a time, the rest wait queued.
      concurrency: 1,
      // A tab closed mid-lecture: the job is queued again at the next start and goes on from
      // the segments its events hold (see #run), instead of failing with JOB_INTERRUPTED.
      resumable: true,
      cancelledError: { code: 'TRANSCRIPTION_CANCELLED', message: 'The transcription was cancelled.' },
      run: (context) => this.#run(context),
    });
  }

  // --- §5.1 create -----------------------------------------------------------

  /** Returns the job at once, `queued`; the work and its events follow. */
  create(input: CreateTranscriptionInput): Promise<TranscriptionJobView> {
    return this.#create(input, []);
  }

  async #create(
    input: CreateTranscriptionInput,
    resumeSegments: readonly TranscriptSegment[],
  ): Promise<TranscriptionJobView> {
    const settings = await this.getSettings();
    // A request that names no profile gets the one chosen in the settings.
    const raw: unknown =
      input && typeof input === 'object' && input.profile_id === undefined
        ? { ...input, profile_id: settings.profile_id }
        : input;
    const request = parseInput(createTranscriptionSchema, raw, 'The transcription request is not valid.');
    resolveAsrProfile(request.profile_id, this.#profiles);
    const attachment = await this.#deps.attachments.info(request.attachment_id);
    if (!attachment) {
      throw new AppError('ATTACHMENT_NOT_FOUND', 'The audio attachment does not exist.', {
        attachment_id: request.attachment_id,
      });
    }
    // Uploads store the sniffed audio type; anything else (an archive being imported) is not audio.
    if (!claimedContainer({ mime_type: attachment.mime_type })) {
      throw new AppError(
        'UNSUPPORTED_AUDIO_FORMAT',
        `"${attachment.name}" is not audio in a supported format (${SUPPORTED_FORMATS_LABEL}).`,
        { attachment_id: attachment.attachment_id, mime_type: attachment.mime_type, reason: 'not_audio' },
      );
    }
    const job = await this.#deps.runtime.create(TRANSCRIPTION_JOB_KIND, {
      ...request,
      ...(resumeSegments.length > 0 ? { resume_segments: resumeSegments } : {}),
    });
    return jobView(job);
  }

  // --- §5.3 list, get, cancel ------------------------------------------------

  async list(input: ListTranscriptionsInput = {}): Promise<OffsetPage<TranscriptionJobView>> {
    const query = parseInput(listTranscriptionsSchema, input);
    const page = await this.#deps.runtime.list({ ...query, kind: TRANSCRIPTION_JOB_KIND });
    return { items: page.items.map(jobView), page: page.page };
  }

  async get(jobId: string): Promise<TranscriptionJobView> {
    return jobView(await this.#job(jobId));
  }

  async cancel(jobId: string): Promise<OperationResponse> {
    const job = await this.#job(jobId);
    const after = await this.#deps.runtime.cancel(job.job_id);
    return { accepted: true, job_id: after.job_id, status: after.status };
  }

  /**
   * Deletes a failed or cancelled transcription (its job and events; the audio stays, other
   * jobs or notes may use it). A running one must be cancelled first and a completed one is
   * kept (STATE_CONFLICT): its transcript is the record notes were made from.
   */
  async delete(jobId: string): Promise<void> {
    const job = await this.#job(jobId);
    if (job.status !== 'failed' && job.status !== 'cancelled') {
      throw new AppError('STATE_CONFLICT', 'Only a failed or cancelled transcription can be deleted.', {
        job_id: jobId,
        status: job.status,
      });
    }
    await this.#deps.runtime.delete(job.job_id);
  }

  /**
   * Runs a failed or cancelled transcription again (same audio, language, profile and
   * metadata) as a new job that takes its place: the old one is deleted once the new one
   * is queued, so the list keeps one entry per recording instead of a failed one beside
   * each retry. The segments the old job finished are kept: the new job goes on after
   * them (its input carries them, `resume_segments`), as a resumed one does. Refused
   * (STATE_CONFLICT) for a job that has not ended badly, and while a retry of the same job
   * is under way (a double click must not queue it twice).
   */
  async retry(jobId: string): Promise<TranscriptionJobView> {
    const job = await this.#job(jobId);
    if ((job.status !== 'failed' && job.status !== 'cancelled') || this.#retrying.has(job.job_id)) {
      throw new AppError('STATE_CONFLICT', 'Only a failed or cancelled transcription can be retried.', {
        job_id: job.job_id,
        status: job.status,
      });
    }
    this.#retrying.add(job.job_id);
    try {
      // Through create: the audio and the profile are checked again, and a refusal keeps the old job.
      const { segments } = await this.#finished(job.job_id);
      const again = await this.#create(requestOf(job.input), segments);
      await this.#deps.runtime.delete(job.job_id);
      return again;
    } finally {
      this.#retrying.delete(job.job_id);
    }
  }

  /** Whether a queued or running transcription reads this attachment (it cannot be deleted then). */
  async usesAttachment(attachmentId: string): Promise<boolean> {
    for (const status of ['queued', 'running'] as const) {
      const { items } = await this.#deps.runtime.list({
        kind: TRANSCRIPTION_JOB_KIND,
        status,
        limit: 10_000,
        offset: 0,
      });
      if (items.some((job) => (job.input as { attachment_id?: unknown }).attachment_id === attachmentId))
        return true;
    }
    return false;
  }

  // --- §5.4 transcript -> note ------------------------------------------------

  /**
   * Only completed jobs (TRANSCRIPT_NOT_READY otherwise). The note and the
   * citation of every block are written in one transaction.
   */
  async toNote(jobId: string, input: TranscriptNoteInput = {}): Promise<NoteDto> {
    const row = await this.#job(jobId);
    const job = toTranscriptionJob(row);
    const audioName = uploadedName(row) ?? (await this.#deps.attachments.info(job.attachment_id))?.name;
    const draft = transcriptToNote(job, input, audioName !== undefined ? { audioName } : {});
    const { note } = await this.#deps.citations.createNoteWithCitations(
      this.#deps.notes,
      { title: draft.title, folder: draft.folder, body: draft.body, tags: [] },
      draft.block_citations.map((citation) => ({ ...citation, job_id: job.job_id })),
    );
    // After the note's transaction: a failure here loses the link back, never the note.
    await this.#rememberNote(job.job_id, note.note_id).catch(() => undefined);
    return note;
  }

  /**
   * The notes made from a job (§5.4) that still exist outside the trash, oldest first, so
   * the job can open its note instead of offering to make the same note again.
   */
  async listNotes(jobId: string): Promise<TranscriptNoteRef[]> {
    const job = await this.#job(jobId);
    const ids = (await this.#deps.settings.get<string[]>(`${NOTES_KEY_PREFIX}${job.job_id}`)) ?? [];
    const notes = await Promise.all(ids.map((id) => this.#deps.notes.get(id)));
    return notes.flatMap((note) =>
      note && note.deleted_at === null ? [{ note_id: note.note_id, title: note.title }] : [],
    );
  }

  /** Serialised: two notes made at once from one job must both be remembered. */
  #rememberNote(jobId: string, noteId: string): Promise<void> {
    const key = `${NOTES_KEY_PREFIX}${jobId}`;
    const write = this.#noteWrites.then(async () => {
      const ids = (await this.#deps.settings.get<string[]>(key)) ?? [];
      await this.#deps.settings.put(key, [...ids, noteId]);
    });
    this.#noteWrites = write.catch(() => undefined);
    return write;
  }

  /** The citations of a note's blocks, in block order (NOTE_NOT_FOUND for an unknown note). */
  async citations(noteId: string): Promise<BlockCitationDto[]> {
    const id = parseInput(noteIdSchema, noteId);
    if (!(await this.#deps.notes.get(id))) {
      throw new AppError('NOTE_NOT_FOUND', 'This note does not exist.', { note_id: id });
    }
    const rows = await this.#deps.citations.forNote(id);
    return rows.map(({ block_id, source_audio, start_time, end_time, speaker }) => ({
      block_id,
      source_audio,
      start_time,
      end_time,
      speaker,
    }));
  }

  // --- settings and catalog ----------------------------------------------------

  async getSettings(): Promise<AsrSettings> {
    const stored = await this.#deps.settings.get<Partial<AsrSettings>>(ASR_SETTINGS_KEY);
    // Each stored value that no longer validates (an older version, a removed profile) falls back alone.
    const merged: AsrSettings = { ...DEFAULT_ASR_SETTINGS };
    for (const key of Object.keys(DEFAULT_ASR_SETTINGS) as (keyof AsrSettings)[]) {
      const candidate = { ...merged, [key]: stored?.[key] };
      const parsed = asrSettingsSchema.safeParse(candidate);
      if (
        stored?.[key] !== undefined &&
        parsed.success &&
        this.#hasProfile(parsed.data.profile_id) &&
        this.#hasDiarizationModel(parsed.data.diarization_model)
      ) {
        Object.assign(merged, parsed.data);
      }
    }
    return merged;
  }

  async updateSettings(patch: UpdateAsrSettingsInput): Promise<AsrSettings> {
    const valid = parseInput(updateAsrSettingsSchema, patch, 'These transcription settings are not valid.');
    if (valid.profile_id !== undefined) resolveAsrProfile(valid.profile_id, this.#profiles);
    if (valid.diarization_model !== undefined && !this.#hasDiarizationModel(valid.diarization_model)) {
      const message = `There is no speaker labelling model "${valid.diarization_model}".`;
      throw new AppError('VALIDATION_FAILED', message, {
        fields: [{ path: 'diarization_model', message }],
        available: this.#diarizationModels.map((model) => model.model_id),
      });
    }
    const next = { ...(await this.getSettings()), ...valid };
    await this.#deps.settings.put(ASR_SETTINGS_KEY, next);
    return next;
  }

  profiles(): AsrProfileDto[] {
    return this.#profiles.map((profile) => {
      const model = ASR_MODELS.find((candidate) => candidate.model_id === profile.model_id);
      return {
        profile_id: profile.profile_id,
        model_id: profile.model_id,
        label: model?.label ?? profile.model_id,
        multilingual: model?.multilingual ?? false,
        parameters_millions: model?.parameters_millions ?? null,
        dtype: { ...profile.dtype },
        approx_download_mb: {
          webgpu: model?.approx_download_mb[profile.dtype.webgpu] ?? null,
          wasm: model?.approx_download_mb[profile.dtype.wasm] ?? null,
        },
      };
    });
  }

  /** The speaker-labelling models `diarization_model` may name. */
  diarizationModels(): DiarizationModelDto[] {
    return this.#diarizationModels.map(({ model_id, label, parameters_millions, approx_download_mb }) => ({
      model_id,
      label,
      parameters_millions,
      approx_download_mb,
    }));
  }

  // --- the page's audio decoder --------------------------------------------------

  /**
   * The page hands in `decodeAudioData` (Web Audio lives on the main thread
   * only). Until it does, only WAV can be transcribed; a later call replaces it.
   */
  registerPageDecoder(decode: PageDecodeAudio): void {
    this.#pageDecoder = new WebAudioDecoder(async (data) => audioBufferOf(await decode(data)));
  }

  /** Frees the engine (its worker and model). */
  async dispose(): Promise<void> {
    const current = this.#engine;
    const diarizer = this.#diarizer;
    this.#engine = null;
    this.#diarizer = null;
    await diarizer?.diarizer.dispose?.().catch(() => undefined);
    await current?.engine.dispose?.();
  }

  // -------------------------------------------------------------------------------

  async #run(context: JobContext<unknown>): Promise<TranscriptionResult> {
    const resume = await this.#resumeOf(context);
    const settings = await this.getSettings();
    const engine = await this.#engineFor(settings);
    const diarizer = await this.#diarizerFor(settings, engine);
    const request = { ...context, input: requestOf(context.input) };
    return runTranscription(withAudioTime(request, this.#deps.windowing), {
      resume,
      loadAudio: async (attachmentId) => {
        const row = await this.#deps.attachments.get(attachmentId);
        return row
          ? { bytes: new Uint8Array(await row.blob.arrayBuffer()), mime_type: row.mime_type, name: row.name }
          : undefined;
      },
      decoder: new AudioDecoderChain([new WavDecoder(), this.#pageDecoder ?? NO_PAGE_DECODER]),
      engine,
      diarizer,
      profiles: this.#profiles,
      ...(this.#deps.windowing ? { windowing: this.#deps.windowing } : {}),
    });
  }

  /**
   * What earlier runs of this job finished: its own events (a run a closed tab cut short),
   * else the segments a retry carried over from the job it replaced.
   */
  async #resumeOf(context: JobContext<unknown>): Promise<TranscriptionResume & { published: boolean }> {
    const own = await this.#finished(context.jobId);
    if (own.segments.length > 0) return { ...own, published: true };
    const carried = (context.input as { resume_segments?: unknown }).resume_segments;
    const segments = resumeFromEvents([
      { event: 'Progress', data: { phase: 'transcribing', segments: carried } },
    ]).segments;
    return { segments, languages: own.languages, published: false };
  }

  /** The segments (and window languages) a job's stored events say were finished. */
  async #finished(jobId: string): Promise<TranscriptionResume> {
    const events: StoredEvent[] = [];
    for (let cursor = 0; ;) {
      const page = await this.#deps.runtime.events(jobId, cursor);
      events.push(...page.items);
      cursor = page.next_sequence;
      if (!page.has_more) break;
    }
    return resumeFromEvents(events);
  }

  /** One engine per model source: a changed model host or download setting replaces (and frees) it. */
  async #engineFor(settings: AsrSettings): Promise<AsrEngine> {
    const source = this.#deps.engine;
    if (typeof source !== 'function') return source;
    const environment = this.#environment(settings);
    const key = JSON.stringify(environment, Object.keys(environment).sort());
    if (this.#engine?.key !== key) {
      await this.#engine?.engine.dispose?.().catch(() => undefined);
      this.#engine = { key, engine: source(environment) };
    }
    return this.#engine.engine;
  }

  /** The settings' diarizer, kept across jobs (its model stays loaded) until the model or its source changes. */
  async #diarizerFor(settings: AsrSettings, engine: AsrEngine): Promise<Diarizer | null> {
    const source = this.#deps.diarizer;
    if (typeof source !== 'function') return source ?? null;
    const model = this.#diarizationModels.find(
      (candidate) => candidate.model_id === settings.diarization_model,
    );
    const environment = this.#environment(settings);
    const key = model
      ? `${model.model_id}|${JSON.stringify(environment, Object.keys(environment).sort())}`
      : null;
    if (this.#diarizer?.key !== key) {
      await this.#diarizer?.diarizer.dispose?.().catch(() => undefined);
      this.#diarizer = key && model ? { key, diarizer: source({ engine, environment, model }) } : null;
    }
    return this.#diarizer?.diarizer ?? null;
  }

  #environment(settings: AsrSettings): TransformersAsrEnvironment {
    return asrEnvironment(
      settings,
      this.#deps.wasmPaths !== undefined ? { wasmPaths: this.#deps.wasmPaths } : {},
    );
  }

  #hasDiarizationModel(modelId: string | null): boolean {
    return modelId === null || this.#diarizationModels.some((model) => model.model_id === modelId);
  }

  async #job(jobId: string) {
    const id = parseInput(jobIdSchema, jobId);
    const job = await this.#deps.runtime.get(id);
    if (job.kind !== TRANSCRIPTION_JOB_KIND) {
      throw new AppError('JOB_NOT_FOUND', 'There is no transcription with this id.', { job_id: id });
    }
    return job;
  }

  #hasProfile(profileId: string): boolean {
    return this.#profiles.some((profile) => profile.profile_id === profileId);
  }
}

function jobView(job: JobDto): TranscriptionJobView {
  const input = job.input as { metadata?: unknown };
  const metadata =
    typeof input.metadata === 'object' && input.metadata !== null && !Array.isArray(input.metadata)
      ? (input.metadata as Record<string, unknown>)
      : {};
  return { ...toTranscriptionJob(job), metadata };
}

/** A job's input as it was asked for (§5.1), without the segments a retry carried over. */
function requestOf(input: unknown): CreateTranscriptionInput {
  const { resume_segments: _carried, ...request } = input as Record<string, unknown>;
  return request as CreateTranscriptionInput;
}

/** The name the page gave the audio when it created the job (`metadata.audio_name`), if any. */
function uploadedName(job: JobDto): string | undefined {
  const name = jobView(job).metadata.audio_name;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/**
 * Adds where in the audio each `Progress` event is: `processed_seconds` of `duration_seconds`.
 * A count of 30 s windows means little to someone whose lecture is an hour long. Windows
 * start every `window - overlap` seconds, so after window n the audio up to its end is done;
 * the duration is the one `TranscriptionStarted` announced.
 */
export function withAudioTime(
  context: JobContext<unknown>,
  windowing: WindowingOptions = {},
): JobContext<unknown> {
  const windowSeconds = windowing.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
  const stride = windowSeconds - (windowing.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS);
  let duration: number | null = null;
  return {
    jobId: context.jobId,
    input: context.input,
    signal: context.signal,
    emit: (event, data) => {
      if (event === 'TranscriptionStarted') {
        const seconds = (data as { duration_seconds?: unknown } | null)?.duration_seconds;
        duration = typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : null;
      }
      return context.emit(event, data);
    },
    progress: (update, eventData) => {
      if (duration === null || update.phase !== 'transcribing' || update.current < 1) {
        return context.progress(update, eventData);
      }
      const processed = Math.min(duration, (update.current - 1) * stride + windowSeconds);
      return context.progress(update, {
        ...eventData,
        processed_seconds: processed,
        duration_seconds: duration,
      });
    },
  };
}

/** Without the page's decoder (no tab connected, or tests), only WAV is readable. */
const NO_PAGE_DECODER: AudioDecoder = {
  supports: () => true,
  decode: (_bytes: Uint8Array, format: AudioFormat): Promise<DecodedAudio> =>
    Promise.reject(
      new AppError(
        'UNSUPPORTED_AUDIO_FORMAT',
        `${containerLabel(format.container)} audio is decoded by the browser's Web Audio API, which is not connected to the transcription service. Reload the app, or use a WAV file.`,
        { container: format.container, codec: format.codec, reason: 'no_page_decoder' },
      ),
    ),
};

function audioBufferOf(pcm: PagePcm) {
  const first = pcm.channels[0];
  return {
    sampleRate: pcm.sampleRate,
    numberOfChannels: pcm.channels.length,
    length: first?.length ?? 0,
    getChannelData: (channel: number) => {
      const data = pcm.channels[channel];
      if (!data) throw new RangeError(`no channel ${channel}`);
      return data;
    },
  };
}
