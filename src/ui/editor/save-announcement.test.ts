import { describe, expect, it } from 'vitest';
import { saveAnnouncement } from './save-announcement';

describe('saveAnnouncement', () => {
  it('says nothing of the flips of a save that works', () => {
    expect(saveAnnouncement('saved', 'unsaved', false)).toBeNull();
    expect(saveAnnouncement('unsaved', 'saving', false)).toBeNull();
    expect(saveAnnouncement('saving', 'saved', false)).toBeNull();
  });

  it('says a save failed, once', () => {
    expect(saveAnnouncement('saving', 'error', false)).toBe('error');
    expect(saveAnnouncement('error', 'error', true)).toBeNull();
  });

  it('says the first save that works after a failure', () => {
    expect(saveAnnouncement('error', 'saving', true)).toBeNull();
    expect(saveAnnouncement('saving', 'saved', true)).toBe('saved');
  });
});
