import { describe, expect, it } from 'vitest';
import type { NoteDto } from '../../contracts';
import { EditorState } from './editor.svelte';

const note = (tags: string[]): NoteDto =>
  ({
    note_id: 'note_1',
    title: 'T',
    folder: '',
    tags,
    body: 'b',
    version: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    deleted_at: null,
  }) as NoteDto;

describe('the tags an open note is saved with', () => {
  it('are its stored tags while the field is untouched, even ones the field cannot spell', () => {
    const editor = new EditorState();
    const stored = ['say "hi" now', '#x', 'Work', 'work', 'two words'];
    editor.open(note(stored));
    editor.setBody('edited');
    expect(editor.content.tags).toEqual(stored);
  });

  it('are what the field says once it is edited', () => {
    const editor = new EditorState();
    editor.open(note(['a']));
    editor.setTagsText('a 会议 #周会');
    expect(editor.content.tags).toEqual(['a', '会议', '周会']);
    // Typed back to what it showed: the stored tags again.
    editor.setTagsText('a');
    expect(editor.content.tags).toEqual(['a']);
  });

  it('are none once the note is closed', () => {
    const editor = new EditorState();
    editor.open(note(['a']));
    editor.close();
    expect(editor.content.tags).toEqual([]);
  });
});
