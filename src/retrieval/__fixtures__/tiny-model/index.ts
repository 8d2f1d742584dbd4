/**
 * The tiny embedding model for tests, scripts and weight-free end-to-end runs.
 * `buildTinyEmbeddingModel` is pure (it returns the files); the writer needs Node.
 */
export * from './tiny-cross-encoder';
export * from './tiny-embedding-model';
export * from './tiny-model-spec';
export * from './vocabulary';
export { writeTinyCrossEncoder, writeTinyEmbeddingModel } from './write-tiny-model';
