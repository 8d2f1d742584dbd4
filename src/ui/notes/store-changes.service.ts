import {
  CoalescedRun,
  parseStoreChange,
  STORE_CHANGES_CHANNEL,
  type StoreChange,
} from '../../core/cross-tab-changes';
import { core, ownChangeSource } from '../api/core-client';
import { editor } from '../editor/editor.svelte';
import { showBackgroundWrite } from '../editor/editor.service';
import { JobsElsewhere } from '../jobs/jobs-elsewhere';
import { jobs } from '../jobs/jobs.svelte';
import { scheduleRefresh } from './notes.service';

/**
 * Keeps this tab up with what the app's other tabs write: their cores post on a
 * BroadcastChannel after each commit (src/services/store-change-broadcast.ts), and this
 * tab reads the store again (the lists, the open note, a job's row), never trusting the
 * message for data. Its own core's messages arrive here too and are told apart by source:
 * what this tab wrote, it already shows.
 */
export function followOtherTabs(): () => void {
  if (typeof BroadcastChannel !== 'function') return () => {};
  const channel = new BroadcastChannel(STORE_CHANGES_CHANNEL);
  const openNote = new CoalescedRun(showBackgroundWrite);
  const jobsElsewhere = new JobsElsewhere(jobs, (jobId) => core.jobs.get(jobId));
  // Messages that arrive before this core said its name wait for it (the worker starts with the page).
  void ownChangeSource();

  const follow = (change: StoreChange, own: boolean): void => {
    if (own) return;
    if (change.kind === 'job') {
      for (const jobId of change.ids) void jobsElsewhere.changed(jobId);
      return;
    }
    // As after this tab's own saves: rows change in place, a note that came or went reloads the list.
    scheduleRefresh({ sidebar: true });
    const open = editor.noteId;
    if (open !== null && change.ids.includes(open)) void openNote.request();
  };
  channel.onmessage = (event: MessageEvent) => {
    const change = parseStoreChange(event.data);
    if (change === null) return;
    // Asked per message: a restarted core posts under a new name.
    void ownChangeSource().then((source) => follow(change, change.source === source));
  };
  return () => channel.close();
}
