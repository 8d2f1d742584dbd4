import { deflateSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  ArchiveFormatError,
  dateLikeUsers,
  decodeMarkdownText,
  isMarkdownPath,
  markdownFileFromNote,
  noteFromMarkdownFile,
  bodyWithExtraFrontMatter,
  DEFAULT_IMPORT_LIMITS,
  extraFrontMatterFromBody,
  readZipArchive,
  readZipArchiveChecked,
  MAX_LISTED_LEFT_OUT,
  stripCommonRoot,
  writeZipArchive,
  type ArchiveFile,
  type NoteDraft,
} from './markdown-archive';
import { seededRandom } from './seeded-random';
import { rawZip } from './test-zips';

function note(overrides: Partial<NoteDraft>): NoteDraft {
  return { title: 'Note', folder: '', body: '', tags: [], extra: {}, ...overrides };
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** Replaces an entry name's bytes in place, so the zip carries it without the UTF-8 flag. */
function patchName(zip: Uint8Array, placeholder: string, replacement: Uint8Array): Uint8Array {
  const needle = strToU8(placeholder);
  expect(replacement.length).toBe(needle.length);
  const patched = zip.slice();
  let replaced = 0;
  for (let offset = 0; offset + needle.length <= patched.length; offset++) {
    if (needle.every((byte, index) => patched[offset + index] === byte)) {
      patched.set(replacement, offset);
      replaced++;
    }
  }
  expect(replaced).toBe(2); // local header and central directory
  return patched;
}

describe('isMarkdownPath', () => {
  it('accepts .md and .markdown files anywhere, in any case', () => {
    for (const path of ['a.md', '课程/操作系统/进程.md', 'x/y.MARKDOWN', './notes/z.Md']) {
      expect(isMarkdownPath(path)).toBe(true);
    }
  });

  it('rejects other extensions, hidden files and folders, and macOS resource forks', () => {
    for (const path of [
      'a.txt',
      'a.md.bak',
      '.hidden.md',
      'vault/.obsidian/x.md',
      '__MACOSX/a/._b.md',
      'dir/',
      '',
    ]) {
      expect(isMarkdownPath(path)).toBe(false);
    }
  });
});

describe('stripCommonRoot', () => {
  const files = (...paths: string[]): ArchiveFile[] => paths.map((path) => ({ path, content: path }));

  it('strips one directory that wraps every file', () => {
    expect(stripCommonRoot(files('笔记/a.md', '笔记/课程/操作系统/b.md'))).toEqual([
      { path: 'a.md', content: '笔记/a.md' },
      { path: '课程/操作系统/b.md', content: '笔记/课程/操作系统/b.md' },
    ]);
  });

  it('leaves paths alone when a file is at the root or under another directory', () => {
    expect(stripCommonRoot(files('root/a.md', 'b.md')).map((file) => file.path)).toEqual([
      'root/a.md',
      'b.md',
    ]);
    expect(stripCommonRoot(files('one/a.md', 'two/b.md')).map((file) => file.path)).toEqual([
      'one/a.md',
      'two/b.md',
    ]);
    expect(stripCommonRoot([])).toEqual([]);
  });
});

describe('noteFromMarkdownFile', () => {
  it('takes the folder from the path and the title from the file name', () => {
    const draft = noteFromMarkdownFile({
      path: '课程/操作系统/进程调度.md',
      content: '# 进程\n\n见 [[线程]]。',
    });
    expect(draft).toEqual({
      title: '进程调度',
      folder: '课程/操作系统',
      body: '# 进程\n\n见 [[线程]]。',
      tags: [],
      extra: {},
    });
  });

  it('reads title, tags, dates and extra keys from front matter and keeps the body byte for byte', () => {
    const content = [
      '---',
      'title: "a/b: 真正的标题"',
      'tags: 课程, os ,  , 复习',
      'created: 2024-03-01',
      'updated_at: 2024-03-02T10:20:30+08:00',
      'author: 张三',
      'aliases: [进程]',
      '---',
      'Body with [[Wiki Link|别名]]\r\nand CRLF\r\n',
    ].join('\n');
    expect(noteFromMarkdownFile({ path: 'x.markdown', content })).toEqual({
      title: 'a/b: 真正的标题',
      folder: '',
      body: 'Body with [[Wiki Link|别名]]\r\nand CRLF\r\n',
      tags: ['课程', 'os', '复习'],
      created_at: '2024-03-01T00:00:00.000Z',
      updated_at: '2024-03-02T02:20:30.000Z',
      // The user's own date key stays as written, to go back out under that key.
      extra: { created: '2024-03-01', author: '张三', aliases: ['进程'] },
    });
  });

  it('accepts tag arrays, prefers created_at over created, and keeps non-dates in extra', () => {
    const content =
      '---\ntags: [a, 2024, "  b  "]\ncreated: 2020-01-01\ncreated_at: 2021-01-01T00:00:00Z\nupdated: soon\n---\n';
    expect(noteFromMarkdownFile({ path: 'n.md', content })).toEqual({
      title: 'n',
      folder: '',
      body: '',
      tags: ['a', '2024', 'b'],
      created_at: '2021-01-01T00:00:00.000Z',
      extra: { created: '2020-01-01', updated: 'soon' },
    });
  });

  it('keeps a body that starts with a thematic break, and strips a byte-order mark', () => {
    const content = '\uFEFF---\n\nAfter a rule.\n\n---\n';
    expect(noteFromMarkdownFile({ path: 'r.md', content })).toMatchObject({
      title: 'r',
      body: '---\n\nAfter a rule.\n\n---\n',
      extra: {},
    });
  });

  it('throws ArchiveFormatError with the path on invalid YAML', () => {
    const error = catchError(() =>
      noteFromMarkdownFile({ path: 'dir/bad.md', content: '---\ntitle: [\n---\n' }),
    );
    expect(error).toBeInstanceOf(ArchiveFormatError);
    expect(error).toMatchObject({ reason: 'invalid_front_matter', path: 'dir/bad.md' });
  });
});

describe('markdownFileFromNote', () => {
  it('names the file after the title inside its folder and always writes front matter', () => {
    const file = markdownFileFromNote(
      note({ title: '进程调度', folder: '课程/操作系统', body: 'x' }),
      new Set(),
    );
    expect(file).toEqual({
      path: '课程/操作系统/进程调度.md',
      content: '---\ntitle: 进程调度\ntags: []\n---\nx',
    });
  });

  it('replaces characters that file systems reject and avoids hidden or empty names', () => {
    const taken = new Set<string>();
    const paths = ['a/b', 'x:y*?"<>|\\z', 'tab\there\n', '.hidden', '...', '', 'CON', 'trailing. '].map(
      (title) => markdownFileFromNote(note({ title }), taken).path,
    );
    expect(paths).toEqual([
      'a_b.md',
      'x_y_______z.md',
      'tab_here_.md',
      'hidden.md',
      'Untitled.md',
      'Untitled (2).md',
      'CON_.md',
      'trailing.md',
    ]);
    for (const path of paths) expect(isMarkdownPath(path)).toBe(true);
  });

  it('resolves colliding titles, ignoring case, and records what it took', () => {
    const taken = new Set<string>(['笔记/同名.md']);
    const paths = ['同名', '同名', 'Readme', 'README'].map(
      (title) => markdownFileFromNote(note({ title, folder: '笔记' }), taken).path,
    );
    expect(paths).toEqual(['笔记/同名 (2).md', '笔记/同名 (3).md', '笔记/Readme.md', '笔记/README (2).md']);
    expect(taken.has('笔记/readme (2).md')).toBe(true);
  });

  it('shortens very long titles without splitting a character', () => {
    const file = markdownFileFromNote(note({ title: '长'.repeat(200) }), new Set());
    const name = file.path.replace(/\.md$/, '');
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(200);
    expect(name).toBe('长'.repeat(66));
    expect(noteFromMarkdownFile(file).title).toBe('长'.repeat(200));
  });
});

describe('the pinned flag', () => {
  it('is written as pinned: true only for a pinned note and read back', () => {
    const pinned = markdownFileFromNote(note({ title: 'Top', body: 'x\n', pinned: true }), new Set());
    expect(pinned.content).toBe('---\ntitle: Top\ntags: []\npinned: true\n---\nx\n');
    expect(noteFromMarkdownFile(pinned)).toMatchObject({ title: 'Top', pinned: true, extra: {} });
    const plain = markdownFileFromNote(note({ title: 'Low', body: 'y\n', pinned: false }), new Set());
    expect(plain.content).not.toContain('pinned');
    expect(noteFromMarkdownFile(plain).pinned).toBeUndefined();
  });

  it('reads pinned: false as unpinned, and keeps any other pinned value as the user wrote it', () => {
    expect(noteFromMarkdownFile({ path: 'a.md', content: '---\npinned: false\n---\nx' })).toMatchObject({
      pinned: false,
      extra: {},
    });
    const own = noteFromMarkdownFile({ path: 'b.md', content: '---\npinned: top\n---\nx' });
    expect(own.pinned).toBeUndefined();
    expect(own.extra).toEqual({ pinned: 'top' });
  });
});

describe('zip archives', () => {
  it('reads only Markdown entries, decodes UTF-8 and strips the BOM', () => {
    const zip = zipSync({
      '导出/课程/操作系统.md': strToU8('\uFEFF# 操作系统'),
      '导出/readme.txt': strToU8('not markdown'),
      '导出/.obsidian/workspace.md': strToU8('hidden'),
      '__MACOSX/导出/._课程.md': new Uint8Array([0, 1, 2]),
      '导出/bad-bytes.md': new Uint8Array([0x61, 0xff, 0x62]),
    });
    expect(readZipArchive(zip)).toEqual([
      { path: '导出/课程/操作系统.md', content: '# 操作系统' },
      { path: '导出/bad-bytes.md', content: 'a\uFFFDb' },
    ]);
  });

  it('lists the files that are not notes as left out, but not another app’s hidden settings', () => {
    const zip = zipSync({
      '库/笔记.md': strToU8('# 笔记'),
      '库/images/封面.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      '库/资料/讲义.pdf': strToU8('%PDF-1.4'),
      '库/.obsidian/app.json': strToU8('{}'),
      '库/.DS_Store': new Uint8Array([0]),
      '__MACOSX/库/._笔记.md': new Uint8Array([0, 1, 2]),
    });
    const read = readZipArchiveChecked(zip);
    expect(read.files.map((file) => file.path)).toEqual(['库/笔记.md']);
    expect(read.left_out).toBe(2);
    expect(read.issues).toEqual([
      { path: '库/images/封面.png', reason: 'not_markdown', action: 'skipped' },
      { path: '库/资料/讲义.pdf', reason: 'not_markdown', action: 'skipped' },
    ]);
  });

  it('counts every left-out file but names only the first MAX_LISTED_LEFT_OUT', () => {
    const images: Record<string, Uint8Array> = { 'n.md': strToU8('# n') };
    for (let index = 0; index < MAX_LISTED_LEFT_OUT + 5; index++)
      images[`img/${index}.png`] = new Uint8Array([1]);
    const read = readZipArchiveChecked(zipSync(images, { level: 0 }));
    expect(read.left_out).toBe(MAX_LISTED_LEFT_OUT + 5);
    expect(read.issues).toHaveLength(MAX_LISTED_LEFT_OUT);
  });

  it('repairs entry names written as UTF-8 or GBK without the UTF-8 flag, and backslashes', () => {
    const utf8 = patchName(zipSync({ 'abc.md': strToU8('x') }), 'abc', strToU8('课'));
    expect(readZipArchive(utf8).map((file) => file.path)).toEqual(['课.md']);
    const gbk = patchName(
      zipSync({ 'abcd.md': strToU8('x') }),
      'abcd',
      new Uint8Array([0xbf, 0xce, 0xb3, 0xcc]),
    );
    expect(readZipArchive(gbk).map((file) => file.path)).toEqual(['课程.md']);
    expect(readZipArchive(zipSync({ 'dir\\sub\\n.md': strToU8('x') })).map((file) => file.path)).toEqual([
      'dir/sub/n.md',
    ]);
  });

  it('throws ArchiveFormatError(invalid_zip) on corrupted bytes', () => {
    const zip = writeZipArchive([{ path: 'a.md', content: 'hello '.repeat(1000) }]);
    const corrupted = zip.slice();
    corrupted.fill(0x55, 40, 80);
    for (const bytes of [
      new Uint8Array(),
      strToU8('not a zip at all'),
      corrupted,
      zip.slice(0, zip.length - 10),
    ]) {
      const error = catchError(() => readZipArchive(bytes));
      expect(error).toBeInstanceOf(ArchiveFormatError);
      expect(error).toMatchObject({ reason: 'invalid_zip' });
    }
  });

  it('decodes strictly on request', () => {
    expect(decodeMarkdownText(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), 'a.md', { fatal: true })).toBe('A');
    expect(
      catchError(() => decodeMarkdownText(new Uint8Array([0xff]), 'a.md', { fatal: true })),
    ).toMatchObject({
      reason: 'not_utf8',
      path: 'a.md',
    });
  });

  it('writes reproducible archives and refuses duplicate paths', () => {
    const files = [{ path: '课程/a.md', content: '内容' }];
    expect(writeZipArchive(files)).toEqual(writeZipArchive(files));
    expect(readZipArchive(writeZipArchive(files))).toEqual(files);
    expect(catchError(() => writeZipArchive([...files, ...files]))).toMatchObject({
      reason: 'duplicate_path',
    });
  });
});

describe('export then import', () => {
  const titles = [
    '操作系统',
    'Process scheduling',
    'a/b',
    '读书笔记: 第1章',
    '.dotfile',
    '',
    '  spaced  ',
    'true',
    '123',
  ];
  const folders = ['', '课程', '课程/操作系统', 'Work/Projects 2024', '日记/2024/03'];
  const tagPool = ['课程', 'os', '复习', 'todo', '2024', 'a,b', 'null', '#hash'];
  const bodyParts = [
    '# 标题\n\n正文段落，含 [[维基链接]] 和 [[Other Note|别名]]。',
    '```python\n---\nprint("hi")\n```',
    '---',
    '$$\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n$$',
    '- [ ] task\n- [x] done',
    'Plain English paragraph.',
    '> 引用\n> quote',
    '---\ntitle: not front matter\n---',
    '',
  ];

  it('round-trips 300 generated notes through a zip unchanged', () => {
    const random = seededRandom(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const notes: NoteDraft[] = Array.from({ length: 300 }, (_, index) => {
      const lineEnding = random() < 0.2 ? '\r\n' : '\n';
      const parts = Array.from({ length: Math.floor(random() * 5) }, () => pick(bodyParts));
      let body = parts.join(`${lineEnding}${lineEnding}`).replace(/\n/g, lineEnding);
      if (random() < 0.5) body += lineEnding;
      if (random() < 0.1) body = `${lineEnding}${body}`;
      const draft: NoteDraft = {
        title: random() < 0.7 ? `${pick(titles)}${random() < 0.5 ? ` ${index}` : ''}` : pick(titles),
        folder: pick(folders),
        body,
        tags: Array.from({ length: Math.floor(random() * 4) }, () => pick(tagPool)),
        extra: {},
      };
      if (random() < 0.7)
        draft.created_at = new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 1e11)).toISOString();
      if (random() < 0.7)
        draft.updated_at = new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 1e11)).toISOString();
      if (random() < 0.5) {
        draft.extra = {
          author: pick(['张三', 'Ann', 'O\'Brien: "quoted"']),
          draft: random() < 0.5,
          rating: Math.floor(random() * 5),
          aliases: [pick(titles)],
          nested: { source: 'https://example.com/a?b=c#d', list: [1, null, '二'] },
          multiline: `line one${pick(['\n', '\r\n'])}---${pick(['\n', '\r\n'])}line three  `,
        };
      }
      return draft;
    });

    const taken = new Set<string>();
    const files = notes.map((draft) => markdownFileFromNote(draft, taken));
    expect(new Set(files.map((file) => file.path.toLowerCase())).size).toBe(300);
    const imported = readZipArchive(writeZipArchive(files)).map(noteFromMarkdownFile);

    expect(imported).toHaveLength(300);
    imported.forEach((draft, index) => {
      const original = notes[index];
      expect(draft).toEqual(original);
      expect(draft.folder).toBe(original?.folder);
    });
  });
});

const MIB = 1024 * 1024;

describe('import limits', () => {
  // One real DEFLATE stream of 100 MiB of zeros (about 100 KB), reused by the bombs.
  const hundredMiB = deflateSync(new Uint8Array(100 * MIB), { level: 1 });
  const tiny = deflateSync(strToU8('# small note\n'));

  it('has defaults that fit real vaults', () => {
    expect(DEFAULT_IMPORT_LIMITS).toEqual({
      max_entries: 20_000,
      max_entry_bytes: 64 * MIB,
      max_total_bytes: 1024 * MIB,
      max_ratio: 1000,
      ratio_floor_bytes: MIB,
      max_path_depth: 32,
      max_name_length: 1024,
      max_picture_bytes: 20 * MIB,
    });
  });

  it('refuses one entry declaring 1 GB before inflating it', () => {
    const bomb = rawZip([{ name: 'vault/big.md', data: tiny, method: 8, declared_size: 1_000_000_000 }]);
    expect(catchError(() => readZipArchiveChecked(bomb))).toMatchObject({
      reason: 'entry_too_large',
      path: 'vault/big.md',
      limit: 64 * MIB,
    });
  });

  it('refuses 10 notes of 100 MB whether their headers are honest or lie', () => {
    const entries = (declared: number) =>
      Array.from({ length: 10 }, (_, i) => ({
        name: `vault/n${i}.md`,
        data: hundredMiB,
        method: 8 as const,
        declared_size: declared,
      }));
    expect(catchError(() => readZipArchiveChecked(rawZip(entries(100 * MIB))))).toMatchObject({
      reason: 'entry_too_large',
      path: 'vault/n0.md',
    });
    // Headers claiming 1 KB each: inflation stops at the 64 MiB cap of the first entry.
    expect(catchError(() => readZipArchiveChecked(rawZip(entries(1024))))).toMatchObject({
      reason: 'entry_too_large',
      path: 'vault/n0.md',
      limit: 64 * MIB,
    });
    // With a small cap, the same lie stops after a few MiB instead.
    expect(
      catchError(() => readZipArchiveChecked(rawZip(entries(1024)), { max_entry_bytes: 2 * MIB })),
    ).toMatchObject({ reason: 'entry_too_large', limit: 2 * MIB });
  });

  it('refuses a total over the limit, counted on declared and on real sizes', () => {
    const declared = Array.from({ length: 20 }, (_, i) => ({
      name: `n${i}.md`,
      data: hundredMiB,
      method: 8 as const,
      declared_size: 60 * MIB,
    }));
    expect(catchError(() => readZipArchiveChecked(rawZip(declared)))).toMatchObject({
      reason: 'total_too_large',
      path: 'n17.md',
      limit: 1024 * MIB,
    });
    // The first entry is honest; the second claims 10 bytes and is stopped at what the total leaves.
    const lying = rawZip([
      { name: 'n0.md', data: hundredMiB, method: 8, declared_size: 100 * MIB },
      { name: 'n1.md', data: hundredMiB, method: 8, declared_size: 10 },
    ]);
    const limits = { max_entry_bytes: 200 * MIB, max_total_bytes: 150 * MIB, max_ratio: 10_000 };
    expect(catchError(() => readZipArchiveChecked(lying, limits))).toMatchObject({
      reason: 'total_too_large',
      path: 'n1.md',
      limit: 150 * MIB,
    });
  });

  it('accepts 20,000 tiny entries and refuses 20,001 from the directory alone', () => {
    const files = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`v/${i}.md`, strToU8('x')]));
    expect(readZipArchiveChecked(zipSync(files(20_000), { level: 0 })).files).toHaveLength(20_000);
    expect(catchError(() => readZipArchiveChecked(zipSync(files(20_001), { level: 0 })))).toMatchObject({
      reason: 'too_many_entries',
      limit: 20_000,
    });
  });

  it('refuses a 10,000:1 ratio, declared or real, and allows small files to compress freely', () => {
    const twoMiB = deflateSync(new Uint8Array(2 * MIB));
    const declared = rawZip([
      { name: 'r.md', data: twoMiB, method: 8, declared_size: twoMiB.byteLength * 10_000 },
    ]);
    expect(catchError(() => readZipArchiveChecked(declared))).toMatchObject({
      reason: 'ratio_too_high',
      path: 'r.md',
      limit: 1000,
    });
    const lying = rawZip([{ name: 'r.md', data: twoMiB, method: 8, declared_size: 10 }]);
    expect(catchError(() => readZipArchiveChecked(lying, { max_ratio: 100 }))).toMatchObject({
      reason: 'ratio_too_high',
      path: 'r.md',
    });
    const spaces = zipSync({ 's.md': new Uint8Array(MIB).fill(0x20) });
    expect(readZipArchiveChecked(spaces).files[0]?.content).toHaveLength(MIB);
  });

  it('refuses deep paths and long names, naming the entry and the limit', () => {
    const deep = `${'d/'.repeat(32)}n.md`;
    expect(catchError(() => readZipArchiveChecked(zipSync({ [deep]: strToU8('x') })))).toMatchObject({
      reason: 'path_too_deep',
      path: deep,
      limit: 32,
    });
    const long = `${'n'.repeat(1100)}.md`;
    expect(catchError(() => readZipArchiveChecked(zipSync({ [long]: strToU8('x') })))).toMatchObject({
      reason: 'name_too_long',
      limit: 1024,
    });
  });

  it('rejects a header whose size disagrees with its data', () => {
    const zip = rawZip([{ name: 'a.md', data: deflateSync(strToU8('hello')), method: 8, declared_size: 3 }]);
    expect(catchError(() => readZipArchiveChecked(zip))).toMatchObject({
      reason: 'invalid_zip',
      path: 'a.md',
    });
  });
});

describe('import report', () => {
  it('lists .. paths, duplicate names, files that are no notes and invalid UTF-8 instead of changing or dropping them silently', () => {
    const zip = rawZip([
      { name: '../../escape.md', data: strToU8('a') },
      { name: 'vault/../up.md', data: strToU8('b') },
      { name: 'same.md', data: strToU8('first') },
      { name: 'same.md', data: strToU8('second') },
      { name: 'bytes.md', data: new Uint8Array([0x61, 0xff, 0x62]) },
      { name: 'picture.png', data: new Uint8Array([1, 2, 3]) },
    ]);
    const { files, issues } = readZipArchiveChecked(zip);
    expect(files).toEqual([
      { path: 'escape.md', content: 'a' },
      { path: 'vault/up.md', content: 'b' },
      { path: 'same.md', content: 'first' },
      { path: 'same (2).md', content: 'second' },
      { path: 'bytes.md', content: 'a\uFFFDb' },
    ]);
    expect(issues).toEqual([
      { path: '../../escape.md', reason: 'path_outside_archive', action: 'renamed', renamed_to: 'escape.md' },
      {
        path: 'vault/../up.md',
        reason: 'path_outside_archive',
        action: 'renamed',
        renamed_to: 'vault/up.md',
      },
      { path: 'same.md', reason: 'duplicate_path', action: 'renamed', renamed_to: 'same (2).md' },
      { path: 'picture.png', reason: 'not_markdown', action: 'skipped' },
      { path: 'bytes.md', reason: 'not_utf8', action: 'repaired' },
    ]);
  });

  it('keeps unknown front-matter keys in the note text and gives them back on export', () => {
    const imported = noteFromMarkdownFile({
      path: 'a.md',
      content: '---\ntitle: A\nauthor: Ada\nrating: 5\n---\nBody\n',
    });
    const body = bodyWithExtraFrontMatter(imported);
    expect(body).toBe('---\nauthor: Ada\nrating: 5\n---\nBody\n');
    expect(bodyWithExtraFrontMatter({ body: 'plain', extra: {} })).toBe('plain');
    const back = extraFrontMatterFromBody(body);
    expect(back).toEqual({ body: 'Body\n', extra: { author: 'Ada', rating: 5 } });
    const file = markdownFileFromNote(note({ title: 'A', ...back }), new Set());
    expect(noteFromMarkdownFile(file)).toMatchObject({ title: 'A', body: 'Body\n', extra: back.extra });
    expect(extraFrontMatterFromBody('---\na: [\n---\nx')).toEqual({ body: '---\na: [\n---\nx', extra: {} });
  });
});

describe('an Obsidian vault’s own date keys', () => {
  const vaultFile = [
    '---',
    'created: 2021-03-04',
    'updated: 2021-05-06 10:20',
    'date: 2020-12-31',
    'modified: 2021-05-06T10:20:00+08:00',
    '---',
    'Text.\n',
  ].join('\n');

  it('come in as the note’s dates and stay in its front matter as written', () => {
    const draft = noteFromMarkdownFile({ path: 'Vault/Diary.md', content: vaultFile });
    expect(draft).toMatchObject({
      created_at: '2021-03-04T00:00:00.000Z',
      updated_at: new Date('2021-05-06T10:20').toISOString(),
      extra: {
        created: '2021-03-04',
        updated: '2021-05-06 10:20',
        date: '2020-12-31',
        modified: '2021-05-06T10:20:00+08:00',
      },
    });
    expect(bodyWithExtraFrontMatter(draft)).toBe(`${vaultFile.split('---\nText.')[0]}---\nText.\n`);
  });

  it('go back out under the user’s keys, not as created_at or updated_at', () => {
    const draft = noteFromMarkdownFile({ path: 'Diary.md', content: vaultFile });
    const exported = markdownFileFromNote(draft, new Set()).content;
    expect(exported).toBe(
      [
        '---',
        'title: Diary',
        'tags: []',
        'created: 2021-03-04',
        'updated: 2021-05-06 10:20',
        'date: 2020-12-31',
        'modified: 2021-05-06T10:20:00+08:00',
        '---',
        'Text.\n',
      ].join('\n'),
    );
    expect(noteFromMarkdownFile({ path: 'Diary.md', content: exported })).toEqual(draft);
  });

  it('say when an edited note changed: its updated: in the user’s format, the exact moment beside it', () => {
    const draft = noteFromMarkdownFile({ path: 'Diary.md', content: vaultFile });
    const edited = { ...draft, updated_at: '2024-01-02T03:04:05.000Z' };
    const exported = markdownFileFromNote(edited, new Set()).content;
    const at = new Date(edited.updated_at);
    const pad = (value: number) => String(value).padStart(2, '0');
    const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
    expect(exported).toContain('\nupdated_at: 2024-01-02T03:04:05.000Z\n');
    expect(exported).toContain(`\nupdated: ${local}\n`);
    expect(exported).not.toContain('2021-05-06 10:20');
    expect(exported).not.toContain('created_at');
    expect(noteFromMarkdownFile({ path: 'Diary.md', content: exported })).toEqual({
      ...edited,
      extra: { ...edited.extra, updated: local },
    });
  });

  it('write a refreshed date in the format the user’s key had', () => {
    const iso = '2024-01-02T03:04:05.000Z';
    const at = new Date(iso);
    const pad = (value: number) => String(value).padStart(2, '0');
    const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
    const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
    expect(dateLikeUsers('2021-03-05', iso)).toBe(day);
    expect(dateLikeUsers('2021-03-05T10:20', iso)).toBe(`${day}T${time}`);
    expect(dateLikeUsers('2021-03-05 10:20:30', iso)).toBe(`${day} ${time}:${pad(at.getSeconds())}`);
    expect(dateLikeUsers('2021-03-05T10:20:30+08:00', iso)).toBe(iso);
    expect(dateLikeUsers('soon', iso)).toBeUndefined();
    expect(dateLikeUsers(20210305, iso)).toBeUndefined();
  });

  it('leave the notebook’s backup as it was: created_at and updated_at in, the same out', () => {
    const backup = note({
      title: 'Backup',
      created_at: '2021-03-04T00:00:00.000Z',
      updated_at: '2022-01-01T00:00:00.000Z',
      extra: { notesagent_id: 'n1' },
    });
    const file = markdownFileFromNote(backup, new Set());
    expect(file.content).toContain(
      '\ncreated_at: 2021-03-04T00:00:00.000Z\nupdated_at: 2022-01-01T00:00:00.000Z\n',
    );
    expect(noteFromMarkdownFile(file)).toEqual(backup);
  });
});
