export { NotesAgentDatabase, openDatabase, DATABASE_NAME } from './database';
export { MIGRATIONS, type Migration } from './schema';
export { NotesRepository, type NoteDraft, type NotePatch, type NoteQuery } from './notes-repository';
export { EventRepository } from './event-repository';
export { JobRepository } from './job-repository';
export { SettingsRepository } from './settings-repository';
export { AttachmentRepository, type AttachmentInfo } from './attachment-repository';
export { SecretsVault } from './secrets-vault';
