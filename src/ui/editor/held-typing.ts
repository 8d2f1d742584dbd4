import { editor, type HeldField } from './editor.svelte';

/**
 * During a switch to another note the note on screen takes no edits: a key's text is held
 * for the note being opened (Backspace takes held text back). False when no switch is under way.
 */
export function holdTypedInput(field: HeldField, event: InputEvent): boolean {
  if (!editor.switching) return false;
  event.preventDefault();
  if (event.inputType.startsWith('delete')) {
    if (event.inputType === 'deleteContentBackward') editor.unhold();
    return true;
  }
  const lineBreak = event.inputType === 'insertLineBreak' || event.inputType === 'insertParagraph';
  editor.hold(field, lineBreak ? '\n' : (event.data ?? event.dataTransfer?.getData('text/plain') ?? ''));
  return true;
}

/** How a switch to a new note ended, seen from the note on screen before and after it. */
export type NewNoteOutcome = 'made' | 'failed' | 'elsewhere';

/**
 * The new note is shown (another note is on screen), another note is being opened instead
 * (still switching), or no note was made: the same note is on screen and the switch is over.
 */
export function newNoteOutcome(
  noteBefore: string | null,
  noteNow: string | null,
  switching: boolean,
): NewNoteOutcome {
  if (switching) return 'elsewhere';
  return noteNow !== noteBefore ? 'made' : 'failed';
}

const PREVIEW_LENGTH = 40;

/** Typed text as a toast quotes it: its first line, cut short. */
export function typedTextPreview(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const chars = Array.from(line);
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH - 1).join('')}…` : line;
}
