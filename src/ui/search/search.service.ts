import type { JobDto } from '../../contracts/jobs';
import { INDEX_REBUILD_JOB_KIND, type RebuildScope, type SearchMode } from '../../contracts/search';
import { core } from '../api/core-client';
import { errorMessage, reportError } from '../errors';
import { t } from '../i18n';
import type { TrackedJob } from '../jobs/job-events';
import { jobs } from '../jobs/jobs.svelte';
import { notes } from '../notes/notes.svelte';
import { toasts } from '../toasts/toasts.svelte';
import { indexStatus, search } from './search.svelte';

const SEARCH_DEBOUNCE_MS = 150;
const RESULT_LIMIT = 20;

let timer: ReturnType<typeof setTimeout> | null = null;
let request = 0;

/** Search as you type: a short pause so fast typing sends one query. */
export function setSearchQuery(query: string): void {
  search.setQuery(query);
  search.setPage(0);
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (query.trim() === '') {
    request += 1;
    search.setResult(null);
    search.setLoading(false);
    return;
  }
  timer = setTimeout(() => {
    timer = null;
    void runSearch();
  }, SEARCH_DEBOUNCE_MS);
}

/**
 * An IME composition began (pinyin): a search queued by the keys before it
 * would run on a half-typed query, so it is dropped; compositionend searches.
 */
export function holdSearch(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

export function setSearchMode(mode: SearchMode): void {
  search.setMode(mode);
  search.setPage(0);
  void runSearch();
}

/** Another page of notes (RESULT_LIMIT notes a page); resolves once its search is answered. */
export function setSearchPage(page: number): Promise<void> {
  search.setPage(Math.max(0, page));
  return runSearch();
}

export const SEARCH_PAGE_SIZE = RESULT_LIMIT;

export function clearSearch(): void {
  setSearchQuery('');
}

/** Re-runs the shown search (the notes or the sidebar filters changed). */
export function refreshSearch(): void {
  if (search.active) void runSearch();
}

/**
 * Asks the core with `fallback: 'fts'`: when vectors cannot answer (another
 * embedding model, not built yet) the UI still shows full-text results and
 * says why, as §9.9 asks of the front end. The filters are the sidebar's.
 * A typeahead request: the core drops the one before it (answered null), and
 * while its stored index is still loading it answers from what it has read,
 * marked `index_loading`; this search then runs again once the index is loaded.
 */
export async function runSearch(): Promise<void> {
  const query = search.query.trim();
  const id = ++request;
  if (query === '') {
    search.setResult(null);
    return;
  }
  search.setLoading(true);
  try {
    const inNotes = notes.view === 'notes';
    const result = await core.search.typeahead({
      query,
      mode: search.mode,
      fallback: 'fts',
      limit: RESULT_LIMIT,
      prefix: true,
      group_by: 'note',
      offset: search.page * RESULT_LIMIT,
      ...(inNotes && notes.folder !== null ? { folder: notes.folder } : {}),
      ...(inNotes && notes.tag !== null ? { tags: [notes.tag] } : {}),
    });
    if (result === null || id !== request) return;
    search.setResult(result);
    if (result.fallback_reason === 'INDEX_MODEL_MISMATCH') void refreshIndexStatus();
    if (result.index_loading) {
      void core.search.loaded().then(() => {
        if (id === request) void runSearch();
      });
    }
  } catch (error) {
    if (id === request) reportError(error);
  } finally {
    if (id === request) search.setLoading(false);
  }
}

export async function refreshIndexStatus(): Promise<void> {
  try {
    const status = await core.search.status();
    indexStatus.setStatus(status);
    // A rebuild started before a reload (or elsewhere) still shows its progress.
    if (status.active_job_id !== null && status.active_job_id !== indexStatus.rebuildJobId) {
      const job = await core.jobs.get(status.active_job_id);
      if (job.kind === INDEX_REBUILD_JOB_KIND) trackRebuild(job);
    }
  } catch (error) {
    reportError(error);
  }
}

export async function rebuildIndex(scope: RebuildScope): Promise<void> {
  try {
    trackRebuild(await core.search.rebuild({ scope }));
    await refreshIndexStatus();
  } catch (error) {
    reportError(error);
  }
}

function onRebuildFinished(job: TrackedJob): void {
  if (job.status === 'completed') toasts.show(t('index.rebuilt'), { kind: 'success' });
  else if (job.status === 'cancelled') toasts.show(t('index.rebuildCancelled'), { kind: 'info' });
  else if (job.status === 'failed' && job.error) {
    const reason = errorMessage(job.error) ?? t('errors.generic');
    toasts.show(t('index.rebuildFailed', { reason }), { kind: 'error' });
  }
  void refreshIndexStatus();
  refreshSearch();
}

/** Follows a rebuild job in the jobs panel and in Settings. */
export function trackRebuild(job: JobDto): void {
  indexStatus.setRebuildJobId(job.job_id);
  jobs.track(job, { onFinished: onRebuildFinished });
}
