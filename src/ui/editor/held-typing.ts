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
