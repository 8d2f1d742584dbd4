import type { JobDto } from './jobs';

/**
 * Choosing the cross-encoder reranker: off (null) by default. When
 * one is chosen, search and "ask your notes" rerank the fused candidates with
 * it. Zod-free, so the page can import it; the request schema lives in
 * reranker-schemas.ts.
 */

/** Downloads (or loads from the browser cache) a chosen reranker, then turns reranking on with it. */
export const RERANKER_DOWNLOAD_JOB_KIND = 'reranker.download';

export interface RerankerOptionDto {
  model_id: string;
  label: string;
  languages: string[];
  /** Approximate download in MB at the weights this device would use. */
  download_mb: number | null;
}

export interface RerankerSettingsDto {
  /** The reranker in use; null means reranking is off. */
  model_id: string | null;
  /** Its version once loaded (null when off). */
  model_version: string | null;
  /** A download in progress (queued or running), if any. */
  download_job_id: string | null;
  /** Empty where no reranker can run (no transformers.js engine). */
  models: RerankerOptionDto[];
}

/** The result of choosing: the download job, or null when nothing needs downloading (off, or already in use). */
export interface SelectRerankerResultDto {
  job: JobDto | null;
  settings: RerankerSettingsDto;
}
