import { describe, expect, it } from 'vitest';
import { BUILT_IN_COMMANDS, matchScore, rankMatches } from './palette-matching';

describe('matchScore', () => {
  it('ranks the whole text, then its start, then a word start, then anywhere', () => {
    expect(matchScore('Trash', 'trash')).toBe(5);
    expect(matchScore('Trash bin', 'tra')).toBe(4);
    expect(matchScore('Go to Trash', 'tra')).toBe(3);
    expect(matchScore('Lighthouse', 'house')).toBe(2);
    expect(matchScore('Lighthouse', 'garden')).toBe(0);
  });

  it('needs every word typed, in any order, and ignores case', () => {
    expect(matchScore('Quarterly lighthouse report', 'REPORT light')).toBeGreaterThan(0);
    expect(matchScore('Quarterly lighthouse report', 'report garden')).toBe(0);
  });

  it('finds Chinese text anywhere, without spaces', () => {
    expect(matchScore('转到回收站', '回收')).toBe(2);
    expect(matchScore('显示键盘快捷键', '快捷键')).toBeGreaterThan(0);
  });

  it('matches everything when nothing is typed', () => {
    expect(matchScore('New note', '  ')).toBe(1);
  });
});

describe('rankMatches', () => {
  const entries = [
    { title: 'Go to Trash' },
    { title: 'Trash settings' },
    { title: 'Show keyboard shortcuts', more: 'keys help hotkeys' },
  ];
  const text = (entry: (typeof entries)[number]) => entry;

  it('puts the best match first and keeps the given order for ties', () => {
    expect(rankMatches(entries, 'trash', text).map((entry) => entry.title)).toEqual([
      'Trash settings',
      'Go to Trash',
    ]);
    expect(rankMatches(entries, '', text)).toEqual(entries);
  });

  it('finds an entry by its other words, below any title match', () => {
    expect(rankMatches(entries, 'help', text).map((entry) => entry.title)).toEqual([
      'Show keyboard shortcuts',
    ]);
  });
});

describe('the built-in commands', () => {
  it('offer each command once, with shortcuts and the export only for an open note flagged', () => {
    const ids = BUILT_IN_COMMANDS.map((command) => command.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('keyboard-shortcuts');
    expect(BUILT_IN_COMMANDS.filter((command) => command.needsNote).map((command) => command.id)).toEqual([
      'export-note',
    ]);
  });
});
