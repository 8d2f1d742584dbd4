import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import {
  AttachmentRepository,
  EventRepository,
  JobRepository,
  NotesRepository,
  SecretsVault,
  SettingsRepository,
  type NotesAgentDatabase,
} from '../db';
import { ArchiveService } from './archive-service';
import { EventsService } from './events-service';
import { JobsService } from './jobs-service';
import { NotesService } from './notes-service';
import { SettingsService } from './settings-service';

/**
 * Composition root of the core: one database, one event log and job runtime,
 * and the services the UI calls. The worker exposes this object through
 * Comlink; tests call it in-thread.
 */
export function createCoreApi(db: NotesAgentDatabase) {
  const eventLog = new EventLog(new EventRepository(db));
  const runtime = new JobRuntime(new JobRepository(db), eventLog);
  const notesRepository = new NotesRepository(db);
  const attachments = new AttachmentRepository(db);
  const api = {
    notes: new NotesService(notesRepository),
    archive: new ArchiveService(notesRepository, attachments, runtime),
    jobs: new JobsService(runtime),
    events: new EventsService(eventLog),
    settings: new SettingsService(new SettingsRepository(db), new SecretsVault(db)),
  };
  return {
    api,
    /** Call once at start-up, after every job kind is registered. */
    recover: () => runtime.recover(),
    idle: () => runtime.idle(),
  };
}

export type CoreApi = ReturnType<typeof createCoreApi>['api'];
