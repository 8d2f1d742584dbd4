import { describe, expect, it } from 'vitest';
import { inlineTags, mergedTags } from './inline-tags';

describe('inlineTags', () => {
  it('finds tags after a space or at a line start, in any script, nested ones as written', () => {
    expect(inlineTags('#start Some text #project/alpha and #读书笔记, then #日本語_メモ.')).toEqual([
      'start',
      'project/alpha',
      '读书笔记',
      '日本語_メモ',
    ]);
  });

  it('keeps the first spelling of tags that differ only in case', () => {
    expect(inlineTags('#Project here\n\nand #project there #PROJECT')).toEqual(['Project']);
  });

  it('needs a non-digit and a space or line start before the #', () => {
    expect(inlineTags('issue #123 and #2024/01 but #y2024 and a#b and ##double')).toEqual(['y2024']);
  });

  it('ends a tag at the first character a tag cannot hold', () => {
    expect(inlineTags('(#paren) #dot. #comma, #dash-ed #under_score #slash/')).toEqual([
      'dot',
      'comma',
      'dash-ed',
      'under_score',
      'slash',
    ]);
  });

  it('is not a heading, but a tag in a heading is a tag', () => {
    expect(inlineTags('# Title\n\n## Section #inheading\n')).toEqual(['inheading']);
  });

  it('ignores code, math, links, URLs, wikilinks and escapes', () => {
    const body = [
      '```',
      '#include <stdio.h> #incode',
      '```',
      '',
      '    #indented',
      '',
      'a `#span` b $#math$ [label #inlabel](#anchor) http://a.com/#b <https://x.y/#z>',
      '[[Note#Heading]] \\#escaped #real',
    ].join('\n');
    expect(inlineTags(body)).toEqual(['real']);
  });

  it('does not read front matter', () => {
    expect(inlineTags('---\ntitle: "#notatag"\ncolor: "#fff"\n---\nBody #tag\n')).toEqual(['tag']);
  });

  it('finds tags in lists, quotes, tables and after emphasis opens', () => {
    const body = '- item #inlist\n\n> quote #inquote\n\n| a | b |\n| - | - |\n| #incell | x |\n\n**#bold**';
    expect(inlineTags(body)).toEqual(['inlist', 'inquote', 'incell', 'bold']);
  });

  it('returns nothing for a note without tags', () => {
    expect(inlineTags('')).toEqual([]);
    expect(inlineTags('plain text, C# and F#')).toEqual([]);
  });
});

describe('mergedTags', () => {
  it('puts the note’s own tags first and adds inline ones not already there, ignoring case', () => {
    expect(mergedTags(['Project', 'os'], ['project', 'linux', 'OS'])).toEqual(['Project', 'os', 'linux']);
  });
});
