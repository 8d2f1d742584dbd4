import { describe, expect, it } from 'vitest';
import { parseDocumentAst, plainText } from '../core/markdown/document-ast';
import { footnoteNumbers } from '../core/markdown/syntax';
import { collectFootnotes, holdsOnlyFootnotes, notesHeading, shownItems, shownItemsTight } from './footnotes';
import { FOOTNOTE_LIST_HANDOUT } from './test-context';

const NOTES = [
  'B[^b] then A[^a], B again[^b], unknown[^zz].\n\n[^a]: first\n[^b]: second\n[^c]: never referenced\n',
  '- item[^x]\n\n> quoted[^y]\n\n[^y]: why\n[^x]: ex[^y]\n',
  '[^late]: defined before it is referenced\n\nNow[^late] and[^early].\n\n[^early]: early\n',
  '| a | b |\n|---|---|\n| cell[^t] | x |\n\n[^t]: in a table\n',
];

const numbersOf = (source: string) =>
  collectFootnotes(parseDocumentAst(source)).notes.map((note) => [note.label, note.number]);

describe('collectFootnotes', () => {
  it.each(NOTES)('numbers the footnotes of %j as the preview does', (source) => {
    expect(numbersOf(source)).toEqual([...footnoteNumbers([source])]);
  });

  it("counts each note's references and keeps its content without the marker", () => {
    const { notes } = collectFootnotes(parseDocumentAst(NOTES[0] ?? ''));
    expect(notes.map((note) => [note.label, note.references])).toEqual([
      ['b', 2],
      ['a', 1],
      ['c', 0],
    ]);
    expect(notes.map((note) => note.content.map(plainText).join(''))).toEqual([
      'second',
      'first',
      'never referenced',
    ]);
  });

  it('keeps the first of two definitions of a label, and can leave out references inside notes', () => {
    const root = parseDocumentAst('A[^x].\n\n[^x]: one, see[^y]\n[^x]: two\n[^y]: why\n');
    const { notes } = collectFootnotes(root);
    expect(notes.map((note) => [note.label, note.content.map(plainText).join('')])).toEqual([
      ['x', 'one, see[^y]'],
      ['y', 'why'],
    ]);
    expect(notes[1]?.references).toBe(1);
    expect(collectFootnotes(root, { skipNotes: true }).byLabel('y')?.references).toBe(0);
  });
});

describe('notesHeading', () => {
  it("is in the note's language", () => {
    expect(notesHeading('进程调度 FCFS')).toBe('注释');
    expect(notesHeading('Process scheduling')).toBe('Notes');
  });
});

describe('shownItems', () => {
  const lists = (source: string) => parseDocumentAst(source).children.filter((node) => node.type === 'list');

  it('leaves out the items that held only a footnote definition, and so the list of only those', () => {
    const [mixed, onlyNotes] = lists(FOOTNOTE_LIST_HANDOUT);
    if (!mixed || !onlyNotes) throw new Error('two lists expected');
    expect(shownItems(mixed).map(plainText)).toEqual(['真正的要点']);
    expect(shownItems(onlyNotes)).toEqual([]);
    // The definition's paragraph made the list loose; what is left of it is tight.
    expect(shownItemsTight(mixed, shownItems(mixed))).toBe(true);
  });

  it('keeps an item with text beside the definition, a task item, and a definition written in place', () => {
    const [list] = lists('- [^a]: note\n\n  and more text\n- [ ] [^b]: task\n- [^c]: in place\n');
    if (!list) throw new Error('a list expected');
    const items = list.children;
    expect(holdsOnlyFootnotes(items[0]!)).toBe(false);
    expect(holdsOnlyFootnotes(items[1]!)).toBe(false);
    expect(holdsOnlyFootnotes(items[2]!)).toBe(true);
    expect(holdsOnlyFootnotes(items[2]!, () => true)).toBe(false);
  });
});
