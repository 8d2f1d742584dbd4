import { describe, expect, it } from 'vitest';
import {
  ArchiveFormatError,
  frontMatterLength,
  joinFrontMatter,
  MAX_FRONT_MATTER_CHARS,
  splitFrontMatter,
} from './front-matter';

describe('splitFrontMatter', () => {
  it('returns the whole source as body when there is no front matter', () => {
    for (const source of ['', '# 标题\n', 'text\n---\nmore', ' ---\na: 1\n---\n']) {
      expect(splitFrontMatter(source)).toEqual({ data: {}, body: source, hasFrontMatter: false });
    }
  });

  it('parses a YAML mapping and keeps the body byte for byte', () => {
    const source = '---\ntitle: 操作系统\ntags: [os, 课程]\ncount: 3\n---\n\n# 正文\r\n  trailing  \n';
    expect(splitFrontMatter(source)).toEqual({
      data: { title: '操作系统', tags: ['os', '课程'], count: 3 },
      body: '\n# 正文\r\n  trailing  \n',
      hasFrontMatter: true,
    });
  });

  it('accepts CRLF, a byte-order mark, `...` as the closing fence and an empty block', () => {
    expect(splitFrontMatter('\uFEFF---\r\ntitle: a\r\n...\r\nbody\r\n')).toEqual({
      data: { title: 'a' },
      body: 'body\r\n',
      hasFrontMatter: true,
    });
    expect(splitFrontMatter('---\n---\nbody')).toEqual({ data: {}, body: 'body', hasFrontMatter: true });
    expect(splitFrontMatter('---\ntitle: end of file\n---')).toEqual({
      data: { title: 'end of file' },
      body: '',
      hasFrontMatter: true,
    });
  });

  it('leaves a leading thematic break and other non-mapping fences in the body', () => {
    for (const source of [
      '---\n\ntitle: looks like yaml\n---\n',
      '---\nSome words\n---\nmore',
      '---\n# Heading\n---\n',
      '---\n- a\n- b\n---\n',
      '---\nno closing fence',
    ]) {
      expect(splitFrontMatter(source)).toEqual({ data: {}, body: source, hasFrontMatter: false });
    }
  });

  it('throws ArchiveFormatError(invalid_front_matter) on invalid YAML', () => {
    for (const source of [
      '---\ntitle: [unclosed\n---\n',
      '---\na: 1\na: 2\n---\n',
      '---\nkey: a: b\n---\n',
    ]) {
      let caught: unknown;
      try {
        splitFrontMatter(source);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ArchiveFormatError);
      expect(caught).toMatchObject({ reason: 'invalid_front_matter', name: 'ArchiveFormatError' });
    }
  });
});

describe('frontMatterLength', () => {
  it('measures front matter without ever throwing', () => {
    expect(frontMatterLength('---\na: 1\n---\nbody')).toBe('---\na: 1\n---\n'.length);
    expect(frontMatterLength('---\na: [\n---\nbody')).toBe('---\na: [\n---\n'.length);
    expect(frontMatterLength('---\n\nbody\n---\n')).toBe(0);
    expect(frontMatterLength('body')).toBe(0);
  });
});

describe('joinFrontMatter', () => {
  it('writes YAML that splits back to the same data and body', () => {
    const data = {
      title: 'a/b: 标题 #1',
      tags: ['x', '123', 'true', ''],
      multiline: 'line 1\r\nline 2  \n---\n...\n',
      dashes: '---',
      nothing: null,
      nested: { list: [1, 'two', { three: 3 }] },
      long: '很长的文字'.repeat(100),
    };
    for (const body of ['', 'body', '---\n\nrule first', '\r\nCRLF\r\n', '---\ntitle: fake\n---\n']) {
      const joined = joinFrontMatter(data, body);
      expect(joined.startsWith('---\ntitle: ')).toBe(true);
      expect(splitFrontMatter(joined)).toEqual({ data, body, hasFrontMatter: true });
    }
  });

  it('writes an empty mapping as front matter too', () => {
    expect(splitFrontMatter(joinFrontMatter({}, 'x'))).toEqual({ data: {}, body: 'x', hasFrontMatter: true });
  });
});

describe('bounded front matter', () => {
  const keys = (count: number) => Array.from({ length: count }, (_, i) => `k${i}: ${i}`).join('\n');

  it('refuses 100,000 keys by size before parsing them', () => {
    const source = `---\n${keys(100_000)}\n---\nBody`;
    let error: unknown;
    try {
      splitFrontMatter(source);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ArchiveFormatError);
    expect(error).toMatchObject({ reason: 'front_matter_too_large', limit: MAX_FRONT_MATTER_CHARS });
    // The editor's block parser still treats the block as front matter.
    expect(frontMatterLength(source)).toBe(source.length - 'Body'.length);
  });

  it('parses 20,000 keys under the size bound and still finds duplicates at any depth', () => {
    const { data } = splitFrontMatter(`---\n${keys(20_000)}\n---\n`);
    expect(Object.keys(data)).toHaveLength(20_000);
    expect(data.k19999).toBe(19_999);
    expect(() => splitFrontMatter(`---\n${keys(20_000)}\nk5: again\n---\n`)).toThrow(/k5 appears twice/);
    expect(() => splitFrontMatter('---\nmeta:\n  a: 1\n  a: 2\n---\n')).toThrow(ArchiveFormatError);
    expect(splitFrontMatter('---\nlist:\n  - a: 1\n  - a: 2\n---\n').data).toEqual({
      list: [{ a: 1 }, { a: 2 }],
    });
  });
});
