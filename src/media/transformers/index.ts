// Whisper through transformers.js (the library itself loads lazily, on the first model load).
// The tiny test model (./__fixtures__/tiny-whisper/) is for tests and is not exported here.
export * from './asr-worker-api';
export * from './transformers-asr-engine';
export * from './transformers-diarizer';
export type * from './transformers-library';
