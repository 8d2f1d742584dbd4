import { describe, expect, it } from 'vitest';
import { LinkIndex, type IndexedNote } from './wikilinks-index';

function note(
  note_id: string,
  title: string,
  body = '',
  created_at = '2026-01-01T00:00:00.000Z',
): IndexedNote {
  return { note_id, title, body, created_at };
}

describe('LinkIndex', () => {
  it('lists backlinks with the line each link is on', () => {
    const index = new LinkIndex();
    index.set(note('a', 'Alpha'));
    index.set(note('b', 'Beta', 'intro\nsee [[alpha]] here\n[[Alpha|again]]'));
    index.set(note('c', 'Gamma', '[[Beta]]'));
    expect(index.backlinks('a')).toEqual([{ note_id: 'b', title: 'Beta', context: 'see [[alpha]] here' }]);
    expect(index.backlinks('b').map((link) => link.note_id)).toEqual(['c']);
    expect(index.backlinks('c')).toEqual([]);
  });

  it('a link inside an Obsidian comment links nothing, and no context quotes a comment', () => {
    const index = new LinkIndex();
    index.set(note('s', 'Secret'));
    index.set(note('p', 'Public'));
    index.set(
      note('b', 'Plans', '%%[x](Secret.md) private plan%%\nsee [[Public]] %%and [[Secret]] too%% here'),
    );
    expect(index.backlinks('s')).toEqual([]);
    expect(index.backlinks('p')).toEqual([{ note_id: 'b', title: 'Plans', context: 'see [[Public]]  here' }]);
  });

  it('counts a link to a heading or block of a note as a backlink to the note', () => {
    const index = new LinkIndex();
    index.set(note('a', 'Index', '## Index\n[[#Index]] [[Index#Index]]'));
    index.set(note('b', 'Beta', 'see [[Index#Index]]\n[[Index#^x|block]]'));
    expect(index.backlinks('a')).toEqual([{ note_id: 'b', title: 'Beta', context: 'see [[Index#Index]]' }]);
    expect(index.resolve('Index#Index')).toBeUndefined();
    expect(index.linkingTo('Index').map((entry) => entry.note_id)).toEqual(['a', 'b']);
  });

  it('follows edits, renames and removals', () => {
    const index = new LinkIndex();
    index.set(note('a', 'Alpha'));
    index.set(note('b', 'Beta', '[[Alpha]]'));
    index.set(note('b', 'Beta', 'no links now'));
    expect(index.backlinks('a')).toEqual([]);
    index.set(note('b', 'Beta', '[[Renamed]]'));
    index.set(note('a', 'Renamed'));
    expect(index.backlinks('a').map((link) => link.note_id)).toEqual(['b']);
    expect(index.resolve('Alpha')).toBeUndefined();
    index.remove('a');
    expect(index.resolve('renamed')).toBeUndefined();
    expect(index.size).toBe(1);
  });

  it('resolves a duplicated title to the oldest note, and backlinks only to it', () => {
    const index = new LinkIndex();
    index.set(note('new', 'Same', '', '2026-02-01T00:00:00.000Z'));
    index.set(note('old', 'same', '', '2026-01-01T00:00:00.000Z'));
    index.set(note('x', 'X', '[[SAME]]'));
    expect(index.resolve('Same')).toEqual({ note_id: 'old', title: 'same' });
    expect(index.backlinks('old').map((link) => link.note_id)).toEqual(['x']);
    expect(index.backlinks('new')).toEqual([]);
  });

  it('does not index or resolve untitled notes', () => {
    const index = new LinkIndex();
    index.set(note('u', '   '));
    expect(index.resolve('')).toBeUndefined();
    expect(index.suggest('', 10)).toEqual([]);
  });

  it('suggests titles starting with the query before those containing it', () => {
    const index = new LinkIndex();
    for (const [id, title] of [
      ['1', 'Project plan'],
      ['2', 'Old project'],
      ['3', 'Plan B'],
      ['4', 'Unrelated'],
    ] as const) {
      index.set(note(id, title));
    }
    expect(index.suggest('pro', 10).map((n) => n.title)).toEqual(['Project plan', 'Old project']);
    expect(index.suggest('plan', 1).map((n) => n.title)).toEqual(['Plan B']);
    expect(index.suggest('', 10)).toHaveLength(4);
  });

  it('suggests aliases as the note they open, with the alias as written, unless a note has that title', () => {
    const index = new LinkIndex();
    index.set(note('h', 'Start page', '---\naliases: [Home, 首页, Hub]\n---\nWelcome'));
    index.set(note('hub', 'Hub', 'A note called Hub', '2024-01-01T00:00:00.000Z'));
    index.set(note('o', 'Homework'));
    // Hub is a title of its own: the alias opens no note, so it is not offered.
    expect(index.suggest('h', 10)).toEqual([
      { note_id: 'h', title: 'Start page', alias: 'Home' },
      { note_id: 'o', title: 'Homework', alias: null },
      { note_id: 'hub', title: 'Hub', alias: null },
    ]);
    expect(index.suggest('首', 10)).toEqual([{ note_id: 'h', title: 'Start page', alias: '首页' }]);
    expect(index.suggest('start', 10)).toEqual([{ note_id: 'h', title: 'Start page', alias: null }]);
  });

  it('lists every note linking to a title, resolved or not', () => {
    const index = new LinkIndex();
    index.set(note('b', 'Beta', '[[Missing]]'));
    expect(index.linkingTo('missing').map((entry) => entry.note_id)).toEqual(['b']);
  });

  it('resolves an alias from the front matter when no note has that title, with backlinks', () => {
    const index = new LinkIndex();
    index.set(note('h', 'Start page', '---\naliases: [Home, 首页]\n---\nWelcome'));
    index.set(note('b', 'Beta', 'back to [[home]]\nand [[首页#Intro]]'));
    expect(index.resolve('Home')).toEqual({ note_id: 'h', title: 'Start page' });
    expect(index.resolve('首页')).toEqual({ note_id: 'h', title: 'Start page' });
    expect(index.backlinks('h')).toEqual([{ note_id: 'b', title: 'Beta', context: 'back to [[home]]' }]);
    index.set(note('h', 'Start page', 'no front matter now'));
    expect(index.resolve('Home')).toBeUndefined();
    expect(index.backlinks('h')).toEqual([]);
  });

  it('lets a real title win over an alias', () => {
    const index = new LinkIndex();
    index.set(note('h', 'Start page', '---\nalias: Home\n---\n', '2025-01-01T00:00:00.000Z'));
    index.set(note('real', 'Home', '', '2026-06-01T00:00:00.000Z'));
    index.set(note('b', 'Beta', '[[Home]]'));
    expect(index.resolve('Home')?.note_id).toBe('real');
    expect(index.backlinks('h')).toEqual([]);
    expect(index.backlinks('real').map((link) => link.note_id)).toEqual(['b']);
    index.remove('real');
    expect(index.resolve('Home')?.note_id).toBe('h');
  });
});

describe('LinkIndex and code', () => {
  it('counts no link in code at any depth, and counts parenthesised addresses and reference definitions', () => {
    const index = new LinkIndex();
    index.set(note('a', 'Alpha'));
    index.set(note('p', 'Plan (2)'));
    index.set(
      note(
        'c',
        'Code only',
        [
          '> [!note]',
          '> ```',
          '> [[Alpha]] [x](Alpha.md) [y](Plan%20(2).md)',
          '> ```',
          '',
          '- item',
          '  - nested',
          '    ```',
          '    [[Alpha]]',
          '    ```',
          '',
          'Text.',
          '',
          '    [[Alpha]] [x](Alpha.md)',
          '',
          '`a span [[Alpha]]',
          '[z](Plan%20(2).md)`',
        ].join('\n'),
      ),
    );
    index.set(note('r', 'Reference', 'See [the plan][plan].\n\n[plan]: <Plan (2).md> "The plan"'));
    index.set(note('q', 'Parenthesised', 'See [it](Plan%20(2).md#Goals) and `[[Alpha]]`.'));
    expect(index.backlinks('a')).toEqual([]);
    expect(index.backlinks('p')).toEqual([
      { note_id: 'q', title: 'Parenthesised', context: 'See [it](Plan%20(2).md#Goals) and `[[Alpha]]`.' },
      { note_id: 'r', title: 'Reference', context: '[plan]: <Plan (2).md> "The plan"' },
    ]);
  });
});

describe('LinkIndex with Obsidian path links', () => {
  const older = '2026-01-01T00:00:00.000Z';
  const newer = '2026-02-01T00:00:00.000Z';
  function inFolder(
    note_id: string,
    folder: string,
    title: string,
    body = '',
    created_at = older,
  ): IndexedNote {
    return { note_id, folder, title, body, created_at };
  }

  it('opens the note with that title in the folder the path names, nested, with .md and a heading', () => {
    const index = new LinkIndex();
    index.set(inFolder('os', '操作系统', '进程调度'));
    index.set(inFolder('deep', '课程/网络', '进程调度', '', newer));
    index.set(inFolder('index', '', 'Index', 'See [[操作系统/进程调度|Scheduling]]'));
    expect(index.resolve('操作系统/进程调度')?.note_id).toBe('os');
    expect(index.resolve('课程/网络/进程调度.md')?.note_id).toBe('deep');
    expect(index.resolve(' 网络 / 进程调度 ')?.note_id).toBe('deep');
    // The vault's own name before the folders, as some exports write it.
    expect(index.resolve('Vault/网络/进程调度')?.note_id).toBe('deep');
    expect(index.resolve('Vault/Index.md')?.note_id).toBe('index');
    expect(index.backlinks('os')).toEqual([
      { note_id: 'index', title: 'Index', context: 'See [[操作系统/进程调度|Scheduling]]' },
    ]);
    expect(index.backlinks('deep')).toEqual([]);
  });

  it('picks the closest folder, then the oldest note; a bare ambiguous title keeps the oldest', () => {
    const index = new LinkIndex();
    index.set(inFolder('nested', 'Courses/OS', 'Notes', '', older));
    index.set(inFolder('top', 'OS', 'Notes', '', newer));
    index.set(inFolder('linker', '', 'Linker', '[[OS/Notes]] and [[Courses/OS/Notes#Part]]'));
    expect(index.resolve('OS/Notes')?.note_id).toBe('top');
    expect(index.resolve('os/notes.md')?.note_id).toBe('top');
    expect(index.resolve('Courses/OS/Notes')?.note_id).toBe('nested');
    expect(index.resolve('Notes')?.note_id).toBe('nested');
    expect(index.resolve('Notes.md')?.note_id).toBe('nested');
    expect(index.backlinks('top').map((link) => link.context)).toEqual([
      '[[OS/Notes]] and [[Courses/OS/Notes#Part]]',
    ]);
    expect(index.backlinks('nested').map((link) => link.note_id)).toEqual(['linker']);
  });

  it('reads a path that names no folder of a note with that title as a title, as before', () => {
    const index = new LinkIndex();
    index.set(inFolder('slash', '', 'TCP/IP'));
    index.set(inFolder('ip', 'Elsewhere', 'IP'));
    index.set(inFolder('linker', '', 'Linker', '[[TCP/IP]] [[Nowhere/IP]]'));
    expect(index.resolve('TCP/IP')?.note_id).toBe('slash');
    expect(index.resolve('Nowhere/IP')).toBeUndefined();
    expect(index.resolve('Elsewhere/IP')?.note_id).toBe('ip');
    expect(index.backlinks('slash').map((link) => link.note_id)).toEqual(['linker']);
    expect(index.backlinks('ip')).toEqual([]);
    // A note whose title ends in .md is linked by its whole title first.
    index.set(inFolder('readme', '', 'README.md'));
    index.set(inFolder('readme2', '', 'README', '', newer));
    expect(index.resolve('README.md')?.note_id).toBe('readme');
  });

  it('follows a note moved to another folder', () => {
    const index = new LinkIndex();
    index.set(inFolder('os', '操作系统', '进程调度'));
    index.set(inFolder('index', '', 'Index', '[[操作系统/进程调度]]'));
    index.set(inFolder('os', '归档', '进程调度'));
    expect(index.resolve('操作系统/进程调度')).toBeUndefined();
    expect(index.backlinks('os')).toEqual([]);
    expect(index.resolve('归档/进程调度')?.note_id).toBe('os');
    expect(index.linkingTo('进程调度').map((entry) => entry.note_id)).toEqual(['index']);
  });

  it('resolves as if some notes were still in their old folders, to know what a link opened before a move', () => {
    const index = new LinkIndex();
    index.set(inFolder('os', '归档', '进程调度'));
    index.set(inFolder('net', '网络', '进程调度', '', newer));
    const before = new Map([['os', '操作系统']]);
    expect(index.resolve('操作系统/进程调度', before)?.note_id).toBe('os');
    expect(index.resolve('操作系统/进程调度')).toBeUndefined();
    expect(index.resolve('归档/进程调度', before)).toBeUndefined();
    expect(index.resolve('网络/进程调度', before)?.note_id).toBe('net');
  });

  it('tells whether a path names another note with that title, either way its first folder is read', () => {
    const index = new LinkIndex();
    index.set(inFolder('moved', 'Archive/OS', 'Notes'));
    expect(index.pathNamesAnother('Courses/OS/Notes', 'moved')).toBe(false);
    // `Courses` read as the vault's name names the folder `OS`.
    index.set(inFolder('top', 'OS', 'Notes', '', newer));
    expect(index.pathNamesAnother('Courses/OS/Notes', 'moved')).toBe(true);
    expect(index.pathNamesAnother('Archive/OS/Notes', 'top')).toBe(true);
    expect(index.pathNamesAnother('Networks/Notes', 'moved')).toBe(false);
    expect(index.pathNamesAnother('Notes', 'moved')).toBe(false);
  });
});
