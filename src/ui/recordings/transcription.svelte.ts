import type {
  AsrProfileDto,
  AsrSettings,
  DiarizationModelDto,
  TranscriptionJob,
} from '../../contracts/transcription';
import type { ChineseScript } from '../../media/chinese-script';
import type { AudioFailure } from './audio-failure';
import {
  deviceStorage,
  readTranscriptionChoices,
  startingProfile,
  writeTranscriptionChoices,
} from './transcription-choices';
import { jobAudioName } from './job-labels';
import type { TranscriptionLive } from './transcription-events';

/** A job as the core lists it: the contract's fields and the metadata it was created with. */
export type TranscriptionJobRow = TranscriptionJob & { metadata?: Record<string, unknown> };

/** A note made from a job's transcript. */
export interface JobNote {
  note_id: string;
  title: string;
}

/** An upload the core could not read as audio: shown beside the drop zone until the next pick. */
export interface RefusedUpload {
  name: string;
  /** The core's own words (which format the file claimed to be); English. */
  detail: string;
  /** Why it cannot be read, when the core said: damaged, another format, or no audio. */
  audio?: AudioFailure;
}

/** The transcription page: jobs (newest first), what each shows live, the selected one and its audio. */
export class TranscriptionViewState {
  #jobs = $state.raw<TranscriptionJobRow[]>([]);
  #live = $state.raw<Record<string, TranscriptionLive>>({});
  #selectedJobId = $state<string | null>(null);
  #audioUrl = $state<string | null>(null);
  #uploading = $state<string | null>(null);
  #refusedUpload = $state.raw<RefusedUpload | null>(null);
  #profiles = $state.raw<AsrProfileDto[]>([]);
  #diarizationModels = $state.raw<DiarizationModelDto[]>([]);
  #settings = $state.raw<AsrSettings | null>(null);
  /** The language and model last chosen on this device (the model applied once the catalog says it exists). */
  readonly #remembered = readTranscriptionChoices(deviceStorage());
  #language = $state(this.#remembered.language);
  #profileId = $state('');
  /** null until chosen here: the app's language picks it (startingChineseScript). */
  #chineseScript = $state<ChineseScript | null>(this.#remembered.chinese_script);
  #diarization = $state(true);
  #audioNames = $state.raw<Record<string, string>>({});
  #notes = $state.raw<Record<string, JobNote[]>>({});

  readonly selected: TranscriptionLive | null = $derived(
    this.#selectedJobId === null ? null : (this.#live[this.#selectedJobId] ?? null),
  );
  readonly selectedJob: TranscriptionJobRow | null = $derived(
    this.#jobs.find((job) => job.job_id === this.#selectedJobId) ?? null,
  );

  get jobs(): TranscriptionJobRow[] {
    return this.#jobs;
  }
  get selectedJobId(): string | null {
    return this.#selectedJobId;
  }
  get audioUrl(): string | null {
    return this.#audioUrl;
  }
  get uploading(): string | null {
    return this.#uploading;
  }
  get refusedUpload(): RefusedUpload | null {
    return this.#refusedUpload;
  }
  get profiles(): AsrProfileDto[] {
    return this.#profiles;
  }
  get diarizationModels(): DiarizationModelDto[] {
    return this.#diarizationModels;
  }
  get settings(): AsrSettings | null {
    return this.#settings;
  }
  /** '' is automatic detection. */
  get language(): string {
    return this.#language;
  }
  get profileId(): string {
    return this.#profileId;
  }
  /** The script chosen for Chinese transcripts; null while none was (the app's language decides). */
  get chineseScript(): ChineseScript | null {
    return this.#chineseScript;
  }
  get diarization(): boolean {
    return this.#diarization;
  }

  /** The audio file's name for a job's row; the attachment id until it is known. */
  nameOf(job: TranscriptionJobRow): string {
    return jobAudioName(job, this.#audioNames);
  }

  /** The notes made from a job's transcript that still exist; [] until known. */
  notesOf(jobId: string): JobNote[] {
    return this.#notes[jobId] ?? [];
  }

  setNotes(jobId: string, notes: JobNote[]): void {
    this.#notes = { ...this.#notes, [jobId]: notes };
  }

  setAudioNames(names: Record<string, string>): void {
    this.#audioNames = { ...this.#audioNames, ...names };
  }

  liveOf(jobId: string): TranscriptionLive | null {
    return this.#live[jobId] ?? null;
  }

  setJobs(jobs: TranscriptionJobRow[]): void {
    this.#jobs = jobs;
  }

  upsertJob(job: TranscriptionJobRow): void {
    const others = this.#jobs.filter((existing) => existing.job_id !== job.job_id);
    this.#jobs = [job, ...others].sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** A deleted job leaves the list, its live state and, when shown, the detail. */
  removeJob(jobId: string): void {
    this.#jobs = this.#jobs.filter((job) => job.job_id !== jobId);
    const { [jobId]: _removed, ...rest } = this.#live;
    this.#live = rest;
    if (this.#selectedJobId === jobId) {
      this.#selectedJobId = null;
      this.setAudioUrl(null);
    }
  }

  setLive(live: TranscriptionLive): void {
    this.#live = { ...this.#live, [live.job_id]: live };
  }

  updateLive(jobId: string, update: (live: TranscriptionLive) => TranscriptionLive): void {
    const current = this.#live[jobId];
    if (current) this.setLive(update(current));
  }

  select(jobId: string | null): void {
    this.#selectedJobId = jobId;
  }

  /** Replaces the player's object URL, revoking the previous one. */
  setAudioUrl(url: string | null): void {
    if (this.#audioUrl) URL.revokeObjectURL(this.#audioUrl);
    this.#audioUrl = url;
  }

  setUploading(name: string | null): void {
    this.#uploading = name;
  }

  setRefusedUpload(refused: RefusedUpload | null): void {
    this.#refusedUpload = refused;
  }

  setCatalog(
    profiles: AsrProfileDto[],
    settings: AsrSettings,
    diarizationModels: DiarizationModelDto[] = [],
  ): void {
    this.#profiles = profiles;
    this.#diarizationModels = diarizationModels;
    this.#settings = settings;
    if (this.#profileId === '') {
      this.#profileId = startingProfile(this.#remembered.profile_id, profiles, settings.profile_id);
    }
  }

  setSettings(settings: AsrSettings): void {
    this.#settings = settings;
  }

  setLanguage(language: string): void {
    this.#language = language;
    this.#remember();
  }
  setProfileId(profileId: string): void {
    this.#profileId = profileId;
    this.#remember();
  }

  setChineseScript(script: ChineseScript): void {
    this.#chineseScript = script;
    this.#remember();
  }

  #remember(): void {
    const choices = {
      language: this.#language,
      profile_id: this.#profileId || null,
      chinese_script: this.#chineseScript,
    };
    Object.assign(this.#remembered, choices);
    writeTranscriptionChoices(deviceStorage(), choices);
  }
  setDiarization(on: boolean): void {
    this.#diarization = on;
  }

  reset(): void {
    this.setAudioUrl(null);
    this.#jobs = [];
    this.#live = {};
    this.#selectedJobId = null;
    this.#uploading = null;
    this.#refusedUpload = null;
  }
}

export const transcriptionView = new TranscriptionViewState();
