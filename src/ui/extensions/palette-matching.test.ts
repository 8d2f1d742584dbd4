import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_COMMANDS,
  foldName,
  matchNote,
  matchScore,
  mergeCandidates,
  rankMatches,
  rankNotes,
  type NoteCandidate,
} from './palette-matching';

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

describe('matchNote', () => {
  const note = (title: string, aliases: string[] = []): NoteCandidate => ({ note_id: title, title, aliases });

  it('finds a note by its title, exactly or by its start, ignoring case and width', () => {
    expect(matchNote(note('Garden plan'), 'garden plan')).toMatchObject({ alias: null, score: 100 });
    expect(matchNote(note('Garden plan'), 'GARD')).toMatchObject({ alias: null, score: 90 });
    expect(matchNote(note('Garden plan'), 'ｇａｒｄ')).toMatchObject({ alias: null, score: 90 });
  });

  it('finds a note by an alias and says which one', () => {
    expect(matchNote(note('Quarterly report', ['QBR', 'Q3 review']), 'q3')).toMatchObject({
      alias: 'Q3 review',
      score: 75,
    });
    expect(matchNote(note('Quarterly report', ['QBR']), 'qbr')).toMatchObject({ alias: 'QBR', score: 80 });
  });

  it('prefers the title when it starts with the query, even if an alias is the query', () => {
    expect(matchNote(note('Meeting notes', ['meet']), 'meet')).toMatchObject({ alias: null });
  });

  it('falls back to fuzzy matches: inside the title, words in any order, letters in order', () => {
    expect(matchNote(note('Quarterly lighthouse report'), 'lighthouse')?.score).toBe(60);
    expect(matchNote(note('Lighthouse'), 'house')?.score).toBe(55);
    expect(matchNote(note('Quarterly lighthouse report'), 'report quarterly')?.score).toBe(50);
    const inOrder = matchNote(note('Quarterly report'), 'qtrly');
    expect(inOrder?.score).toBeGreaterThan(30);
    expect(inOrder?.score).toBeLessThan(45);
    expect(matchNote(note('Quarterly report'), 'xyz')).toBeNull();
    expect(matchNote(note('Anything'), '  ')).toBeNull();
  });

  it('matches Chinese titles and aliases without word boundaries', () => {
    expect(matchNote(note('会议纪要'), '会议')?.score).toBe(90);
    expect(matchNote(note('本周会议纪要'), '会议')?.score).toBe(55);
    expect(matchNote(note('会议纪要'), '会纪')?.score).toBeGreaterThan(30);
    expect(matchNote(note('项目周报', ['周会记录']), '会记')).toMatchObject({ alias: '周会记录', score: 70 });
  });
});

describe('rankNotes', () => {
  const candidates: NoteCandidate[] = [
    { note_id: 'fuzzy', title: 'Post-mortem: deploy', aliases: [] },
    { note_id: 'inside', title: 'Weekly deploy checklist', aliases: [] },
    { note_id: 'alias', title: 'Release runbook', aliases: ['Deploy guide'] },
    { note_id: 'prefix', title: 'Deployment plan', aliases: [] },
    { note_id: 'exact', title: 'Deploy', aliases: [] },
    { note_id: 'none', title: 'Garden', aliases: ['Roses'] },
  ];

  it('ranks the exact and prefix titles first, then aliases, then fuzzy matches', () => {
    expect(rankNotes(candidates, 'deploy', 10).map((match) => match.note_id)).toEqual([
      'exact',
      'prefix',
      'alias',
      'fuzzy',
      'inside',
    ]);
  });

  it('keeps the candidates’ order for ties and stops at the limit', () => {
    const same: NoteCandidate[] = [
      { note_id: 'newer', title: 'Plan B', aliases: [] },
      { note_id: 'older', title: 'Plan A', aliases: [] },
    ];
    expect(rankNotes(same, 'plan', 10).map((match) => match.note_id)).toEqual(['newer', 'older']);
    expect(rankNotes(candidates, 'deploy', 2)).toHaveLength(2);
  });
});

describe('mergeCandidates', () => {
  it('gives each note once, with the aliases found for it', () => {
    expect(
      mergeCandidates(
        [
          { note_id: 'a', title: 'Plan' },
          { note_id: 'b', title: 'Plan' },
        ],
        [
          { note_id: 'a', title: 'Plan', alias: null },
          { note_id: 'c', title: 'Runbook', alias: 'Plan C' },
          { note_id: 'c', title: 'Runbook', alias: 'Plan C' },
          { note_id: 'a', title: 'Plan', alias: 'Roadmap' },
        ],
      ),
    ).toEqual([
      { note_id: 'a', title: 'Plan', aliases: ['Roadmap'] },
      { note_id: 'b', title: 'Plan', aliases: [] },
      { note_id: 'c', title: 'Runbook', aliases: ['Plan C'] },
    ]);
  });
});

describe('foldName', () => {
  it('ignores case, width and runs of spaces', () => {
    expect(foldName('  Ｑ３   Review ')).toBe('q3 review');
  });
});
