import { beforeEach, describe, expect, it } from 'vitest';
import { notes } from './notes.svelte';

describe('the note list before its first answer', () => {
  beforeEach(() => notes.reset());

  it('waits (no count to trust) until the first list arrives, empty or not', () => {
    expect(notes.firstList).toBe('waiting');
    notes.setLoading(true);
    expect(notes.firstList).toBe('waiting');
    notes.replace(new Map([[0, []]]), 0);
    notes.setLoading(false);
    expect(notes.firstList).toBe('listed');
    expect(notes.total).toBe(0);
  });

  it('says the list failed when the first load ended without one, until a later load lists it', () => {
    notes.setLoading(true);
    notes.setLoading(false);
    expect(notes.firstList).toBe('failed');
    notes.setLoading(true);
    notes.replace(new Map([[0, []]]), 0);
    notes.setLoading(false);
    expect(notes.firstList).toBe('listed');
  });
});
