import { AppError } from '../contracts';
import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import type { FetchFunction, Sleep } from '../providers';
import {
  AttachmentRepository,
  BlockCitationRepository,
  ConversationRepository,
  EventRepository,
  IndexRepository,
  JobRepository,
  NotesRepository,
  ProviderRepository,
  SecretsVault,
  SettingsRepository,
  ThemeRepository,
  type NotesAgentDatabase,
} from '../db';
import { DexieMemoryStore } from '../db/agent-stores';
import type { AsrEngine, AsrProfile, DiarizationModelInfo, Diarizer, WindowingOptions } from '../media';
import type { TransformersAsrEnvironment } from '../media/transformers';
import {
  DEFAULT_RETRIEVAL_PROFILE,
  HashEmbedder,
  type Embedder,
  type Reranker,
  type RetrievalProfile,
} from '../retrieval';
import { SearchIndexer, type EmbedderPair } from '../retrieval/search-indexer';
import { providerAgentAdapters } from './agent-adapters';
import { createAgentService, type AgentAdapterFactory } from './agent-service';
import { AttachmentService } from './attachment-service';
import { providerAnswers } from './benchmark-answers';
import { engineBenchmarkEmbedders } from './benchmark-embedders';
import { BenchmarkService, type BenchmarkServiceOptions } from './benchmark-service';
import type { EmbeddingEngine } from './embedding-engine';
import { ArchiveService, IMPORT_JOB_KIND } from './archive-service';
import { rollBackInterruptedImports } from './import-staging';
import { settingsContextStore } from './chat-context';
import { MemoryService } from './memory-service';
import { ChatService, type RouterTuning } from './chat-service';
import { NoteImageService } from './note-image-service';
import { EmbeddingService, type EmbeddingServiceOptions } from './embedding-service';
import { EventsService } from './events-service';
import { ExportService, type ExportServiceOptions } from './export-service';
import { JobsService } from './jobs-service';
import { LocalModelsService, noLocalModels, type LocalModelConnection } from './local-models-service';
import { NotesService } from './notes-service';
import { LinksService } from './links-service';
import { NoteHistoryService } from './note-history-service';
import { NoteVersionRepository } from '../db/note-versions';
import { DraftRepository } from '../db/draft-repository';
import { ImportOriginRepository } from '../db/import-origin-repository';
import { ImportStagingRepository } from '../db/import-staging-repository';
import { DraftsService } from './drafts-service';
import { PluginService, type PluginConnectors } from './plugin-service';
import { PluginRepository } from '../db/plugin-stores';
import { ProviderService } from './provider-service';
import { RerankerService, type RerankerServiceOptions } from './reranker-service';
import { SearchService } from './search-service';
import { SettingsService } from './settings-service';
import { StorageService } from './storage-service';
import { ThemeService } from './theme-service';
import { TranscriptionService, type AsrEngineFactory, type DiarizerFactory } from './transcription-service';
import { webLockLeases } from './web-lock-leases';
import { BroadcastingEventLog, type StoreChangeBroadcast } from './store-change-broadcast';
import type { JobLeases } from '../core/job-leases';

export interface CoreOptions {
  /** Embeds blocks and queries; hash-v1 (no download) unless a model is given. */
  embedder?: Embedder;
  profile?: RetrievalProfile;
  /** A fixed cross-encoder (tests, benchmarks); it takes the place of the one chosen in the settings. */
  reranker?: Reranker;
  /** Rerankers the user can choose (the embed worker in the app); without an engine reranking stays off. */
  rerankers?: Pick<RerankerServiceOptions, 'engine' | 'models' | 'source' | 'device'>;
  /** Embedding models the user can choose (the embed worker in the app); without an engine only hash-v1. */
  embedding?: Pick<EmbeddingServiceOptions, 'engine' | 'models' | 'source' | 'device'>;
  /** Quiet time after a note change before the index update job runs. */
  indexDebounceMs?: number;
  /** Provider calls: tests pass a fetch, an instant sleep and fast retries. */
  providers?: { fetch?: FetchFunction; sleep?: Sleep; mockScenario?: string; router?: RouterTuning };
  /**
   * Speech recognition: a fixed engine (tests: the double or the tiny Whisper)
   * or a factory per model source (the worker: the ASR worker client). Without
   * one, transcriptions fail with TRANSCRIPTION_MODEL_UNAVAILABLE.
   */
  transcription?: {
    engine?: AsrEngine | AsrEngineFactory;
    diarizer?: Diarizer | DiarizerFactory | null;
    diarizationModels?: readonly DiarizationModelInfo[];
    profiles?: readonly AsrProfile[];
    windowing?: WindowingOptions;
    wasmPaths?: TransformersAsrEnvironment['wasmPaths'];
  };
  /** Benchmarks: tests inject a latency clock or the databases runs index in. */
  benchmarks?: Pick<BenchmarkServiceOptions, 'latencyClock' | 'openIsolated' | 'environment'> & {
    /**
     * Where runs that compare embedding models load them: apart from the
     * user's engine (the app: a second embed worker), so a run never unloads
     * the model the notebook's index uses. Without one only hash-v1 is compared.
     */
    embeddingEngine?: EmbeddingEngine;
  };
  /** Starts the local-model worker (web-llm); without it local models are unavailable. */
  localModels?: () => LocalModelConnection;
  /** How plugin MCP servers are reached (the worker: a dedicated plugin worker per plugin). */
  plugins?: PluginConnectors;
  /** The agent's model (tests: a scripted adapter); the offline demo by default. */
  agentAdapters?: AgentAdapterFactory;
  /** Export: the page's Mermaid renderer, a test clock, exporter overrides. */
  exports?: Pick<ExportServiceOptions, 'mermaid' | 'clock' | 'exporters' | 'renderer' | 'ttlMs'>;
  /**
   * The notes' timestamps (ISO strings); the system clock by default. Tests of the list's
   * order give each write its own instant, as two writes in one millisecond tie otherwise.
   */
  notesNow?: () => string;
  /** Which live tab drives which job and answer; Web Locks by default (tests: MemoryLeaseManager tabs). */
  jobLeases?: JobLeases;
  /** Tells the app's other tabs about committed note writes and job events (the worker: a BroadcastChannel). */
  storeChanges?: StoreChangeBroadcast;
}

/** The engine of a core built without one: every load says why nothing can be transcribed. */
const NO_ASR_ENGINE: AsrEngine = {
  load: async () => {
    throw new AppError(
      'TRANSCRIPTION_MODEL_UNAVAILABLE',
      'Speech recognition is not available in this part of the app.',
    );
  },
  transcribeWindow: async () => {
    throw new AppError('TRANSCRIPTION_MODEL_UNAVAILABLE', 'Speech recognition is not available.');
  },
};

/**
 * Composition root of the core: one database, one event log and job runtime,
 * and the services the UI calls. The worker exposes this object through
 * Comlink; tests call it in-thread.
 */
export function createCoreApi(db: NotesAgentDatabase, options: CoreOptions = {}) {
  const eventRepository = new EventRepository(db);
  const eventLog = options.storeChanges
    ? new BroadcastingEventLog(eventRepository, options.storeChanges)
    : new EventLog(eventRepository);
  // A job's row and its lifecycle event are written in one transaction.
  const jobStore = new JobRepository(db, eventRepository);
  // Web Locks tell this tab's jobs from other live tabs' (job-leases.ts).
  const jobLeases = options.jobLeases ?? webLockLeases();
  const runtime = new JobRuntime(jobStore, eventLog, undefined, jobLeases);
  // The indexer reads notes through its own repository; the one the services
  // write through tells it what changed, after each commit, without waiting.
  const indexSources = new NotesRepository(db);
  const indexer = new SearchIndexer({
    notes: indexSources,
    store: new IndexRepository(db),
    runtime,
    embedder: options.embedder ?? new HashEmbedder(),
    // The model chosen last time, unless a test fixed one.
    ...(options.embedder
      ? {}
      : { restoreEmbedder: (): Promise<EmbedderPair | undefined> => embedding.restore() }),
    ...(options.indexDebounceMs !== undefined ? { debounceMs: options.indexDebounceMs } : {}),
  });
  // Links are indexed from the same change reports; the service exists once the notes service does.
  const linkListener: { current?: LinksService } = {};
  const notesRepository = new NotesRepository(db, {
    listener: {
      notesChanged: (change) => {
        indexer.notesChanged(change);
        linkListener.current?.notesChanged(change);
        options.storeChanges?.notesChanged(change);
      },
    },
    history: {},
    ...(options.notesNow && { now: options.notesNow }),
  });
  const attachments = new AttachmentRepository(db);
  const settingsRepository = new SettingsRepository(db);
  const embedding = new EmbeddingService({
    settings: settingsRepository,
    runtime,
    indexer,
    ...options.embedding,
  });
  const rerankers = new RerankerService({
    settings: settingsRepository,
    runtime,
    remoteHost: () => embedding.remoteHost(),
    ...options.rerankers,
  });
  const vault = new SecretsVault(db);
  const { router, ...adapterOptions } = options.providers ?? {};
  const localModels = new LocalModelsService(
    runtime,
    settingsRepository,
    options.localModels ?? noLocalModels,
  );
  const providers = new ProviderService(new ProviderRepository(db), vault, settingsRepository, {
    ...adapterOptions,
    localAdapter: (model) => localModels.adapter(model),
  });
  const notes = new NotesService(notesRepository);
  const importStaging = new ImportStagingRepository(db);
  const links = new LinksService(indexSources, notes);
  linkListener.current = links;
  const search = new SearchService(indexSources, indexer, options.profile ?? DEFAULT_RETRIEVAL_PROFILE, {
    // Asked per query: choosing or turning off a reranker applies to the next search.
    reranker: () => options.reranker ?? rerankers.current(),
  });
  const conversationRepository = new ConversationRepository(db);
  // One store with the agent: a memory deleted here is gone from chats and runs alike.
  const memory = new MemoryService({
    store: new DexieMemoryStore(db),
    switches: settingsRepository,
    conversationExists: async (id) => (await conversationRepository.get(id)) !== undefined,
  });
  const chat = new ChatService(conversationRepository, providers, eventLog, {
    ...(router && { router }),
    notes: search,
    context: settingsContextStore(settingsRepository),
    attachments,
    notesWriter: notes,
    memory,
    leases: jobLeases,
  });
  const plugins = new PluginService({
    repository: new PluginRepository(db),
    vault,
    ...(options.plugins && { connectors: options.plugins }),
  });
  // A fixed model (tests), else any configured provider (with its fallback) or the offline demo;
  // agent benchmarks run on the same models as the agent.
  const agentAdapters =
    options.agentAdapters ?? providerAgentAdapters({ providers, localModels, ...(router && { router }) });
  const agent = createAgentService({
    db,
    events: eventLog,
    runtime,
    notes,
    search,
    vault,
    liveTools: plugins.agentTools(),
    adapters: agentAdapters,
  });
  const { engine: asrEngine, ...asrOptions } = options.transcription ?? {};
  const transcriptions = new TranscriptionService({
    runtime,
    attachments,
    notes: notesRepository,
    citations: new BlockCitationRepository(db),
    settings: settingsRepository,
    engine: asrEngine ?? NO_ASR_ENGINE,
    ...asrOptions,
  });
  const settings = new SettingsService(settingsRepository, vault);
  const { embeddingEngine: _benchmarkEngine, ...benchmarkOptions } = options.benchmarks ?? {};
  const themes = new ThemeService({ themes: new ThemeRepository(db), settings });
  const api = {
    notes,
    links,
    history: new NoteHistoryService(notes, new NoteVersionRepository(db)),
    drafts: new DraftsService(new DraftRepository(db)),
    archive: new ArchiveService(
      notesRepository,
      attachments,
      runtime,
      importStaging,
      new ImportOriginRepository(db),
    ),
    jobs: new JobsService(runtime),
    events: new EventsService(eventLog),
    settings,
    storage: new StorageService(db),
    search,
    embedding,
    rerankers,
    providers,
    chat,
    agent,
    memory,
    noteImages: new NoteImageService(attachments),
    attachments: new AttachmentService(attachments, {
      inUse: (attachmentId) => transcriptions.usesAttachment(attachmentId),
    }),
    transcriptions,
    localModels,
    plugins,
    themes,
    exports: new ExportService({
      runtime,
      notes: notesRepository,
      files: attachments,
      themes,
      ...options.exports,
    }),
    benchmarks: new BenchmarkService({
      db,
      runtime,
      events: eventLog,
      notes: indexSources,
      embedder: () => indexer.embedder,
      reranker: () => options.reranker ?? rerankers.current(),
      agentAdapters,
      answers: providerAnswers(providers, router),
      embeddingModels: engineBenchmarkEmbedders({
        engine: options.benchmarks?.embeddingEngine,
        models: options.embedding?.models,
        source: options.embedding?.source,
        device: options.embedding?.device,
        remoteHost: () => embedding.remoteHost(),
      }),
      ...benchmarkOptions,
    }),
  };
  return {
    api,
    /** Call once at start-up, after every job kind is registered. */
    recover: async () => {
      // Only jobs, imports and answers whose tab is gone: another open tab's stay its own.
      const recovered = await runtime.recover();
      // An import a closed tab interrupted leaves nothing behind; its job says so.
      await rollBackInterruptedImports(
        IMPORT_JOB_KIND,
        jobStore,
        notesRepository,
        attachments,
        importStaging,
        jobLeases,
      );
      await chat.recover();
      await agent.recover();
      // Enabled plugins start in the background; one that fails is left in `error`.
      void plugins.recover().catch((error: unknown) => console.error('plugin start failed', error));
      return recovered;
    },
    /** Loads the stored search indexes (or starts building them); call after `recover`. */
    start: () => indexer.start(),
    /** Resolves when no job is running or queued and no note waits to be indexed. */
    idle: async () => {
      await indexer.flush();
      await runtime.idle();
      await chat.idle();
    },
    /** Stops background timers and frees the speech model (tests, shutdown). */
    dispose: () => {
      indexer.dispose();
      void transcriptions.dispose().catch(() => undefined);
    },
    /** For tests: the indexer behind `api.search`. */
    searchIndexer: indexer,
  };
}

export type CoreApi = ReturnType<typeof createCoreApi>['api'];
