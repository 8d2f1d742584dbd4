// One host for transformers.js models in a worker: where files come from
// (environment), which back end runs them (devices), load progress, abort and
// the one-model-at-a-time slot. Used by embeddings and the reranker
// (src/retrieval/) and by Whisper and speaker labels (src/media/transformers/).
// The library itself is imported lazily by each caller, never here.
export * from './devices';
export * from './environment';
export * from './model-slot';
export * from './progress';
