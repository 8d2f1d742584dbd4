import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import type { FetchFunction, Sleep } from '../providers';
import {
  AttachmentRepository,
  ConversationRepository,
  EventRepository,
  IndexRepository,
  JobRepository,
  NotesRepository,
  ProviderRepository,
  SecretsVault,
  SettingsRepository,
  type NotesAgentDatabase,
} from '../db';
import { DEFAULT_RETRIEVAL_PROFILE, HashEmbedder, type Embedder, type RetrievalProfile } from '../retrieval';
import { createAgentService } from './agent-service';
import { ArchiveService } from './archive-service';
import { ChatService, type RouterTuning } from './chat-service';
import { EventsService } from './events-service';
import { JobsService } from './jobs-service';
import { LocalModelsService, noLocalModels, type LocalModelConnection } from './local-models-service';
import { NotesService } from './notes-service';
import { ProviderService } from './provider-service';
import { SearchIndexer } from './search-indexer';
import { SearchService } from './search-service';
import { SettingsService } from './settings-service';

export interface CoreOptions {
  /** Embeds blocks and queries; hash-v1 (no download) unless a model is given. */
  embedder?: Embedder;
  profile?: RetrievalProfile;
  /** Quiet time after a note change before the index update job runs. */
  indexDebounceMs?: number;
  /** Provider calls: tests pass a fetch, an instant sleep and fast retries. */
  providers?: { fetch?: FetchFunction; sleep?: Sleep; mockScenario?: string; router?: RouterTuning };
  /** Starts the local-model worker (web-llm); without it local models are unavailable. */
  localModels?: () => LocalModelConnection;
}

/**
 * Composition root of the core: one database, one event log and job runtime,
 * and the services the UI calls. The worker exposes this object through
 * Comlink; tests call it in-thread.
 */
export function createCoreApi(db: NotesAgentDatabase, options: CoreOptions = {}) {
  const eventLog = new EventLog(new EventRepository(db));
  const runtime = new JobRuntime(new JobRepository(db), eventLog);
  // The indexer reads notes through its own repository; the one the services
  // write through tells it what changed, after each commit, without waiting.
  const indexSources = new NotesRepository(db);
  const indexer = new SearchIndexer({
    notes: indexSources,
    store: new IndexRepository(db),
    runtime,
    embedder: options.embedder ?? new HashEmbedder(),
    ...(options.indexDebounceMs !== undefined ? { debounceMs: options.indexDebounceMs } : {}),
  });
  const notesRepository = new NotesRepository(db, { listener: indexer });
  const attachments = new AttachmentRepository(db);
  const settingsRepository = new SettingsRepository(db);
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
  const search = new SearchService(indexSources, indexer, options.profile ?? DEFAULT_RETRIEVAL_PROFILE);
  const chat = new ChatService(new ConversationRepository(db), providers, eventLog, {
    ...(router && { router }),
    notes: search,
  });
  const agent = createAgentService({ db, events: eventLog, runtime, notes, search, vault });
  const api = {
    notes,
    archive: new ArchiveService(notesRepository, attachments, runtime),
    jobs: new JobsService(runtime),
    events: new EventsService(eventLog),
    settings: new SettingsService(settingsRepository, vault),
    search,
    providers,
    chat,
    agent,
    localModels,
  };
  return {
    api,
    /** Call once at start-up, after every job kind is registered. */
    recover: async () => {
      const recovered = await runtime.recover();
      await chat.recover();
      await agent.recover();
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
    /** Stops background timers (tests, shutdown). */
    dispose: () => indexer.dispose(),
    /** For tests: the indexer behind `api.search`. */
    searchIndexer: indexer,
  };
}

export type CoreApi = ReturnType<typeof createCoreApi>['api'];
