const KEY = 'notesagent.device-notice-dismissed';

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage blocked (privacy settings): the notice then shows each visit, which is harmless.
    return null;
  }
}

/**
 * Whether the person has dismissed the "no WebGPU here" notice. The device does not change
 * between visits, so the dismissal is kept in this browser (not synced with the notes).
 */
export class DeviceNoticeState {
  #dismissed = $state(store()?.getItem(KEY) === '1');

  get dismissed(): boolean {
    return this.#dismissed;
  }

  dismiss(): void {
    this.#dismissed = true;
    try {
      store()?.setItem(KEY, '1');
    } catch {
      // A full or blocked storage only means the notice comes back next visit.
    }
  }
}

export const deviceNotice = new DeviceNoticeState();
