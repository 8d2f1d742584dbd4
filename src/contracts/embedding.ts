import type { JobDto } from './jobs';
import type { EmbeddingInfoDto } from './search';

/**
 * Choosing the embedding model: the catalog the settings offer, the
 * model in use and where model files are downloaded from. Zod-free, so the
 * page can import it; the request schemas live in embedding-schemas.ts.
 */

/** The built-in embedder: no download, the default until a model is chosen. */
export const BUILTIN_EMBEDDING_MODEL_ID = 'hash-v1';

/** Downloads (or loads from the browser cache) a chosen model, then makes it the one in use. */
export const EMBEDDING_DOWNLOAD_JOB_KIND = 'embedding.download';

export interface EmbeddingModelOptionDto {
  model_id: string;
  label: string;
  languages: string[];
  dimension: number;
  /** Approximate download in MB at the weights this device would use; null for the built-in one. */
  download_mb: number | null;
  builtin: boolean;
}

export interface EmbeddingSettingsDto {
  /** The model new vectors and queries are embedded with. */
  model_id: string;
  active: EmbeddingInfoDto;
  /** Where model files are downloaded from; null means the default host. */
  remote_host: string | null;
  default_remote_host: string;
  /** A download in progress (queued or running), if any. */
  download_job_id: string | null;
  models: EmbeddingModelOptionDto[];
}

/** The result of choosing a model: the download job, or null when no download is needed. */
export interface SelectEmbeddingModelResultDto {
  job: JobDto | null;
  settings: EmbeddingSettingsDto;
}
