import { describe, expect, it } from 'vitest';
import {
  linkKey,
  linkKeys,
  parseWikilinks,
  rewriteWikilinks,
  splitWikilinkTarget,
  wikilinkQueryAt,
} from './wikilinks';

describe('parseWikilinks', () => {
  it('finds targets, labels and offsets', () => {
    const body = 'See [[Alpha]] and [[ Beta note | the beta ]].';
    const links = parseWikilinks(body);
    expect(links.map(({ target, label }) => [target, label])).toEqual([
      ['Alpha', null],
      ['Beta note', 'the beta'],
    ]);
    expect(body.slice(links[0]!.start, links[0]!.end)).toBe('[[Alpha]]');
    expect(body.slice(links[1]!.start, links[1]!.end)).toBe('[[ Beta note | the beta ]]');
  });

  it('skips fenced code, code spans, escapes, empty targets and links across lines', () => {
    const body = [
      '```md',
      '[[In fence]]',
      '```',
      'Inline `[[code]]` and \\[[escaped]] and [[]] and [[|x]] and [[open',
      'close]] and ~~~ not a fence [[Real]]',
      '~~~',
      '[[Fenced tilde]]',
      '~~~',
      '中文 [[笔记 一]]',
    ].join('\n');
    expect(parseWikilinks(body).map((link) => link.target)).toEqual(['Real', '笔记 一']);
  });

  it('links a heading or block to its note, and [[#Heading]] to the same note', () => {
    const body = 'See [[Index#Index]], [[ Plan#Next steps | the steps ]], [[Plan#^abc]] and [[#Here]].';
    expect(parseWikilinks(body).map(({ target, fragment, label }) => [target, fragment, label])).toEqual([
      ['Index', 'Index', null],
      ['Plan', 'Next steps', 'the steps'],
      ['Plan', '^abc', null],
      ['', 'Here', null],
    ]);
    expect(parseWikilinks('[[#]] [[ # ]]')).toEqual([]);
  });

  it('takes a link after brackets that are not a link', () => {
    expect(parseWikilinks('[[a [b]] then [[Good]]').map((link) => link.target)).toEqual(['Good']);
  });
});

describe('linkKey and linkKeys', () => {
  it('ignores case and whitespace differences', () => {
    expect(linkKey('  Project   Plan ')).toBe('project plan');
    expect([...linkKeys('[[Plan]] [[plan|p]] [[Other]]')]).toEqual(['plan', 'other']);
  });

  it('keys a heading link by its note, and leaves links within the note out', () => {
    expect([...linkKeys('[[Plan#Goals]] [[plan#^x|p]] [[#Local]]')]).toEqual(['plan']);
  });
});

describe('splitWikilinkTarget', () => {
  it('splits at the first # a heading or block id follows', () => {
    expect(splitWikilinkTarget('Note')).toEqual({ title: 'Note', fragment: null });
    expect(splitWikilinkTarget('Note#A#B ')).toEqual({ title: 'Note', fragment: 'A#B' });
    expect(splitWikilinkTarget('Note #Heading two')).toEqual({ title: 'Note', fragment: 'Heading two' });
    expect(splitWikilinkTarget('#^id')).toEqual({ title: '', fragment: '^id' });
  });

  it('keeps a # before a space or at the end in the title (C# tips, F#)', () => {
    expect(splitWikilinkTarget('C# tips')).toEqual({ title: 'C# tips', fragment: null });
    expect(splitWikilinkTarget('F#')).toEqual({ title: 'F#', fragment: null });
    expect(splitWikilinkTarget('C# tips#Generics')).toEqual({ title: 'C# tips', fragment: 'Generics' });
  });
});

describe('rewriteWikilinks', () => {
  it('rewrites plain and aliased links, keeping labels and other text', () => {
    const result = rewriteWikilinks('a [[Old title]] b [[old  TITLE|alias]] c [[Other]]', 'Old title', 'New');
    expect(result).toEqual({ body: 'a [[New]] b [[New|alias]] c [[Other]]', count: 2 });
  });

  it('keeps the heading, block id and label of a link into the note', () => {
    const result = rewriteWikilinks(
      '[[Old#Second heading]] [[old#^b1|see]] [[#Old]] [[Older#Old]]',
      'Old',
      'New',
    );
    expect(result).toEqual({
      body: '[[New#Second heading]] [[New#^b1|see]] [[#Old]] [[Older#Old]]',
      count: 2,
    });
  });

  it('leaves a body without such links untouched, and code alone', () => {
    const body = '`[[Old]]`\n```\n[[Old]]\n```\n';
    expect(rewriteWikilinks(body, 'Old', 'New')).toEqual({ body, count: 0 });
  });
});

describe('links in code nested in other blocks', () => {
  // Code at any depth, as the preview parses it: links there are text and stay as written.
  const body = [
    '> [!note] A callout',
    '> ```',
    '> [[Old]] in the callout’s fence',
    '> ```',
    '',
    '> quoted [[Old]]',
    '> > ~~~~',
    '> > [[Old|in a nested quote’s fence]]',
    '> > ~~~~',
    '',
    'Some text.',
    '',
    '    [[Old]] in indented code',
    '',
    '- outer',
    '  - inner',
    '    ```',
    '    [[Old]] in a nested list’s fence',
    '    ```',
    '1. ```',
    '   [[Old]] in a fence opening the item',
    '   ```',
    '',
    'A span `that runs',
    'over [[Old]] two lines` and [[Old#Part]].',
  ].join('\n');

  it('finds only the links outside code', () => {
    expect(parseWikilinks(body).map((link) => body.slice(link.start, link.end))).toEqual([
      '[[Old]]',
      '[[Old#Part]]',
    ]);
    expect(parseWikilinks(body)[0]!.start).toBe(body.indexOf('quoted [[Old]]') + 7);
  });

  it('rewrites only the links outside code', () => {
    const { body: rewritten, count } = rewriteWikilinks(body, 'Old', 'New');
    expect(count).toBe(2);
    expect(rewritten).toBe(
      body.replace('quoted [[Old]]', 'quoted [[New]]').replace('[[Old#Part]]', '[[New#Part]]'),
    );
  });

  it('keeps offsets of a note written with CRLF line ends', () => {
    const crlf = '> ```\r\n> [[Old]]\r\n> ```\r\n\r\nsee [[Old]]';
    expect(rewriteWikilinks(crlf, 'Old', 'New')).toEqual({
      body: crlf.replace('see [[Old]]', 'see [[New]]'),
      count: 1,
    });
  });
});

describe('wikilinkQueryAt', () => {
  it('reports the target being typed after an open [[', () => {
    const text = 'line one\nsee [[Alp';
    expect(wikilinkQueryAt(text, text.length)).toEqual({ start: text.length - 3, query: 'Alp' });
    expect(wikilinkQueryAt('x [[', 4)).toEqual({ start: 4, query: '' });
  });

  it('is null outside an open link', () => {
    expect(wikilinkQueryAt('[[done]] after', 14)).toBeNull();
    expect(wikilinkQueryAt('[[a|label', 9)).toBeNull();
    // A heading is being typed: titles are no longer offered.
    expect(wikilinkQueryAt('[[Alpha#Sec', 11)).toBeNull();
    // …but a title with a # in it (C# tips) still completes.
    expect(wikilinkQueryAt('[[C# ti', 7)).toEqual({ start: 2, query: 'C# ti' });
    expect(wikilinkQueryAt('[[a\nb', 5)).toBeNull();
    expect(wikilinkQueryAt('plain', 5)).toBeNull();
  });
});

describe('rewriteWikilinks with paths', () => {
  it('keeps the folders, .md, heading and label of a path link', () => {
    const body =
      'See [[操作系统/进程调度|Scheduling]], [[课程/操作系统/进程调度.md#时间片]] and [[进程调度]].';
    expect(rewriteWikilinks(body, '进程调度', 'CPU 调度')).toEqual({
      body: 'See [[操作系统/CPU 调度|Scheduling]], [[课程/操作系统/CPU 调度.md#时间片]] and [[CPU 调度]].',
      count: 3,
    });
  });

  it('rewrites only the links the caller says follow, asking once for each target', () => {
    const asked: string[] = [];
    const result = rewriteWikilinks(
      '[[A/Old]] [[B/Old]] [[a/Old]] [[Old]]',
      'Old',
      'New',
      (before, after) => {
        asked.push(`${before} → ${after}`);
        return !before.toLowerCase().startsWith('b/');
      },
    );
    expect(result).toEqual({ body: '[[A/New]] [[B/Old]] [[a/New]] [[New]]', count: 3 });
    expect(asked).toEqual(['A/Old → A/New', 'B/Old → B/New', 'a/Old → a/New', 'Old → New']);
  });

  it('replaces a title with a slash in it whole', () => {
    expect(rewriteWikilinks('[[TCP/IP]] [[net/TCP/IP]]', 'TCP/IP', 'Networking')).toEqual({
      body: '[[Networking]] [[net/TCP/IP]]',
      count: 1,
    });
  });
});

describe('links beside code in alt text and table cells', () => {
  it('keeps a link before an image whose description holds code', () => {
    expect(parseWikilinks('See [[Old]]. ![`cmd`](shot.png)').map((link) => link.target)).toEqual(['Old']);
  });

  it('keeps a link in a table row whose code span holds an escaped pipe', () => {
    const body = ['| a | b |', '| --- | --- |', '| [[Old]] | `ls \\| wc` see [[Other]] |'].join('\n');
    expect(parseWikilinks(body).map((link) => link.target)).toEqual(['Old', 'Other']);
  });
});
