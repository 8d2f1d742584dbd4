import { core } from '../api/core-client';
import { t } from '../i18n';
import { refreshAll } from '../notes/notes.service';
import { toasts } from '../toasts/toasts.svelte';
import { IMPORT_JOB_KIND, untoldInterruptedImports } from './interrupted-imports';

const TOLD_KEY = 'notesagent.import-interrupted-told';

function readTold(): Set<string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(TOLD_KEY) ?? '[]');
    return new Set(Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/**
 * Once per interrupted import: "the import of vault.zip was interrupted;
 * nothing was imported", and how many notes it had overwritten were put back.
 */
export async function announceInterruptedImports(): Promise<void> {
  try {
    // The rollback runs in the core's start-up recovery; wait for it, then show the list without those notes.
    await core.ready();
    const failed = await core.jobs.list({ kind: IMPORT_JOB_KIND, status: 'failed', limit: 100 });
    const told = readTold();
    const untold = untoldInterruptedImports(failed.items, told);
    for (const job of untold) {
      const file = job.error?.details?.['file_name'];
      const restored = job.error?.details?.['restored'];
      const notice = t('importCrash.notice', { file: typeof file === 'string' ? file : '' });
      const putBack =
        typeof restored === 'number' && restored > 0
          ? ` ${t('importCrash.restored', { count: restored })}`
          : '';
      toasts.show(`${notice}${putBack}`, {
        kind: 'info',
        timeoutMs: 0,
      });
      told.add(job.job_id);
    }
    if (untold.length === 0) return;
    localStorage.setItem(TOLD_KEY, JSON.stringify([...told]));
    await refreshAll();
  } catch (error) {
    // Only a notice: the rollback itself already happened in the core.
    console.warn('NotesAgent: could not check for interrupted imports', error);
  }
}
