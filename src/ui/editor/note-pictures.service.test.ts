// @vitest-environment jsdom
import { history, undo } from '@codemirror/commands';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caretToDropPoint, insertPicturesInView } from './note-pictures.service';

vi.mock('../api/core-client', () => ({ core: {} }));

const A = '![a](attachment:x)';
const B = '![b](attachment:y)';

function viewOf(doc: string, anchor: number, head = anchor): EditorView {
  return new EditorView({
    parent: document.body,
    state: EditorState.create({ doc, selection: { anchor, head }, extensions: [history()] }),
  });
}

describe('pictures in the large-note editor', () => {
  it('go in at the caret on lines of their own, the caret after them, and one undo takes them out', () => {
    const view = viewOf('Intro\n\nnext', 5);
    insertPicturesInView(view, [A, B]);
    expect(view.state.doc.toString()).toBe(`Intro\n${A}\n${B}\n\nnext`);
    expect(view.state.selection.main.head).toBe(`Intro\n${A}\n${B}`.length);
    undo(view);
    expect(view.state.doc.toString()).toBe('Intro\n\nnext');
    view.destroy();
  });

  it('take the place of the selection, split from the words either side', () => {
    const view = viewOf('before X after', 7, 8);
    insertPicturesInView(view, [A]);
    expect(view.state.doc.toString()).toBe(`before \n${A}\n after`);
    view.destroy();
  });
});

describe('a drop onto the textarea', () => {
  afterEach(() => {
    Reflect.deleteProperty(document, 'caretPositionFromPoint');
    document.body.replaceChildren();
  });

  function textarea(): HTMLTextAreaElement {
    const input = document.createElement('textarea');
    input.value = 'one two three';
    document.body.append(input);
    input.setSelectionRange(13, 13);
    return input;
  }

  const drop = () => new Event('drop') as DragEvent;

  it('puts the caret at the offset the browser finds under the point', () => {
    const input = textarea();
    Object.assign(document, { caretPositionFromPoint: () => ({ offsetNode: input, offset: 4 }) });
    caretToDropPoint(input, drop());
    expect([input.selectionStart, input.selectionEnd]).toEqual([4, 4]);
    expect(document.activeElement).toBe(input);
  });

  it('leaves the caret where it was when the point is not in the textarea or cannot be found', () => {
    const input = textarea();
    Object.assign(document, { caretPositionFromPoint: () => ({ offsetNode: document.body, offset: 0 }) });
    caretToDropPoint(input, drop());
    expect(input.selectionStart).toBe(13);
    Reflect.deleteProperty(document, 'caretPositionFromPoint');
    caretToDropPoint(input, drop());
    expect(input.selectionStart).toBe(13);
  });
});
