import { describe, expect, it } from 'vitest';
import { newNoteOutcome, typedTextPreview } from './held-typing';

describe('newNoteOutcome', () => {
  it('is made when another note is on screen once the switch is over', () => {
    expect(newNoteOutcome('a', 'b', false)).toBe('made');
    expect(newNoteOutcome(null, 'b', false)).toBe('made');
  });

  it('failed when the note on screen is the one before and the switch is over', () => {
    expect(newNoteOutcome('a', 'a', false)).toBe('failed');
    expect(newNoteOutcome(null, null, false)).toBe('failed');
  });

  it('is elsewhere while another note is being opened instead', () => {
    expect(newNoteOutcome('a', 'a', true)).toBe('elsewhere');
  });
});

describe('typedTextPreview', () => {
  it('quotes the first line', () => {
    expect(typedTextPreview('会议记录\n第二行')).toBe('会议记录');
    expect(typedTextPreview('  plan ')).toBe('plan');
  });

  it('cuts long text by characters, not UTF-16 units', () => {
    const long = '𠮷'.repeat(50);
    const preview = typedTextPreview(long);
    expect(Array.from(preview)).toHaveLength(40);
    expect(preview.endsWith('…')).toBe(true);
  });
});
