/**
 * Retrieval core: tokenizer, BM25 full-text index, embedders, vector
 * index, hybrid search driven by a RetrievalProfile, and ranking metrics. Pure:
 * no IndexedDB, no workers, no model downloads; services persist and schedule.
 */
export * from './retrieval-profile';
export * from './tokenizer';
export * from './search-filter';
export * from './query-plan';
export * from './query-tags';
export * from './full-text-index';
export * from './embedder';
export * from './hash-embedder';
export * from './vector-index';
export * from './hybrid-search';
export * from './relevance-calibration';
export * from './metrics';
export * from './snippet';
