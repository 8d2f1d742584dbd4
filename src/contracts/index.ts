// The full surface, schemas included: for the worker side. Page code imports
// the zod-free modules (errors, jobs, notes types, settings, events) directly
// so the shell does not load zod.
export * from './agent-runs';
export * from './agent-runs-schemas';
export * from './archive';
export * from './archive-schemas';
export * from './attachments';
export * from './attachments-schemas';
export * from './chat';
export * from './embedding';
export * from './embedding-schemas';
export * from './error-codes';
export * from './errors';
export * from './events';
export * from './jobs';
export * from './local-models';
export * from './local-models-schemas';
export * from './job-schemas';
export * from './notes';
export * from './pages';
export * from './plugin-types';
export * from './plugins-schemas';
export * from './provider-config';
export * from './provider-schemas';
export * from './reranker';
export * from './reranker-schemas';
export * from './search';
export * from './search-schemas';
export * from './settings';
export * from './settings-schemas';
export * from './time';
export * from './transcription';
export * from './transcription-schemas';
export * from './validation';
export * from './benchmark';
export * from './benchmark-schemas';
