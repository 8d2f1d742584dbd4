import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  journalKey,
  parseJournal,
  replayJournal,
  sameTextId,
  textId,
  type StoredJournal,
} from './edit-journal';
import { textChange, type TextChange } from './text-change';

const base = 'The scheduler picks the next runnable thread.\n'.repeat(2000);

/** Typing as an editor reports it: one change per key, each in the text the previous one left. */
function typed(text: string, at: number, keys: string): { changes: TextChange[]; result: string } {
  const changes = [...keys].map((key, index) => ({ from: at + index, to: at + index, insert: key }));
  return { changes, result: text.slice(0, at) + keys + text.slice(at) };
}

function journal(overrides: Partial<StoredJournal> = {}): StoredJournal {
  return {
    v: 1,
    note_id: 'n1',
    marks: [{ at: 0, id: textId(base) }],
    changes: [],
    fields: { title: 'Big', folder: '', tags: [], base_version: 2 },
    saved_at: '2026-03-10T12:00:00.000Z',
    ...overrides,
  };
}

describe('textId', () => {
  it('is the same for the same text and differs for a change of one character or of order', () => {
    expect(sameTextId(textId(base), textId(`${base}`))).toBe(true);
    expect(sameTextId(textId(base), textId(`${base.slice(0, -1)}!`))).toBe(false);
    expect(textId('ab').hash).not.toBe(textId('ba').hash);
    expect(textId('').length).toBe(0);
    expect(textId('调度').hash).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('applyChanges', () => {
  it('applies changes in order, each in the text the previous one left', () => {
    expect(
      applyChanges('hello world', [
        { from: 5, to: 5, insert: ',' },
        { from: 7, to: 12, insert: 'there' },
        { from: 0, to: 1, insert: 'H' },
      ]),
    ).toBe('Hello, there');
  });

  it('is null for a change that does not fit the text (the journal of another text)', () => {
    expect(applyChanges('short', [{ from: 3, to: 9, insert: '' }])).toBeNull();
    expect(applyChanges('short', [{ from: 4, to: 2, insert: '' }])).toBeNull();
  });
});

describe('replayJournal', () => {
  it('gives back exactly the typed text from the stored text the journal starts from', () => {
    const first = typed(base, 10, 'every key ');
    const second = typed(first.result, first.result.length, '\n调度 at the end 🚀');
    const deleted = textChange(second.result, second.result.slice(0, 5) + second.result.slice(40))!;
    const changes = [...first.changes, ...second.changes, deleted];
    const expected = applyChanges(base, changes);
    expect(expected).toBe(second.result.slice(0, 5) + second.result.slice(40));
    // The note holds the base; the tab's draft is something else (or absent).
    expect(replayJournal(journal({ changes }), ['an older draft', base])).toBe(expected);
    expect(replayJournal(journal({ changes }), [base])).toBe(expected);
  });

  it('starts from the latest mark still stored: a write that landed, or the one before when it did not', () => {
    const first = typed(base, 0, 'abc');
    const second = typed(first.result, 3, 'def');
    const changes = [...first.changes, ...second.changes];
    const withMark = journal({
      changes,
      marks: [
        { at: 0, id: textId(base) },
        { at: 3, id: textId(first.result) },
      ],
    });
    // The draft write of the text after "abc" landed, and the note was saved over the base meanwhile.
    expect(replayJournal(withMark, [first.result, 'the note, saved since'])).toBe(second.result);
    // The write did not land: the note still holds the base.
    expect(replayJournal(withMark, ['an older draft', base])).toBe(second.result);
  });

  it('is null when no stored text is one the journal knows', () => {
    expect(replayJournal(journal({ changes: typed(base, 0, 'x').changes }), ['other', 'texts'])).toBeNull();
    expect(replayJournal(journal(), [])).toBeNull();
  });
});

describe('parseJournal', () => {
  it('reads back what was written', () => {
    const written = journal({ changes: typed(base, 0, 'ab').changes });
    expect(parseJournal(JSON.stringify(written))).toEqual(written);
    expect(parseJournal(JSON.stringify(journal({ fields: null })))?.fields).toBeNull();
  });

  it('refuses anything of another shape', () => {
    expect(parseJournal(null)).toBeNull();
    expect(parseJournal('{nope')).toBeNull();
    expect(parseJournal('"text"')).toBeNull();
    expect(parseJournal(JSON.stringify({ ...journal(), v: 2 }))).toBeNull();
    expect(parseJournal(JSON.stringify(journal({ marks: [] })))).toBeNull();
    expect(parseJournal(JSON.stringify(journal({ marks: [{ at: 1, id: textId(base) }] })))).toBeNull();
    expect(
      parseJournal(
        JSON.stringify(
          journal({
            marks: [
              { at: 0, id: textId(base) },
              { at: 5, id: textId(base) },
            ],
          }),
        ),
      ),
    ).toBeNull();
    expect(parseJournal(JSON.stringify(journal({ changes: [{ from: 3, to: 1, insert: '' }] })))).toBeNull();
    expect(
      parseJournal(JSON.stringify(journal({ marks: [{ at: 0, id: { length: 1, hash: 'zz' } }] }))),
    ).toBeNull();
    expect(parseJournal(JSON.stringify({ ...journal(), fields: { title: 1 } }))).toBeNull();
  });
});

describe('journalKey', () => {
  it('is per tab and note', () => {
    expect(journalKey('tabA', 'n1')).not.toBe(journalKey('tabB', 'n1'));
    expect(journalKey('tabA', 'n1')).not.toBe(journalKey('tabA', 'n2'));
  });
});
