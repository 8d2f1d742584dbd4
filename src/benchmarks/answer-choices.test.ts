import { describe, expect, it } from 'vitest';
import { choiceType, headingLevel, headingWords, isAnswerable } from './answer-choices';

describe('headingLevel and headingWords', () => {
  it('read ATX headings, closing run and all', () => {
    expect(headingLevel('### Round robin ###')).toBe(3);
    expect(headingWords('### Round robin ###')).toBe('Round robin');
    expect(headingWords('# C# in ten minutes')).toBe('C# in ten minutes');
    expect(headingLevel('##')).toBe(2);
    expect(headingWords('##')).toBe('');
  });

  it('read setext headings by their underline', () => {
    expect(headingLevel('Scheduling\n==========')).toBe(1);
    expect(headingWords('Scheduling\n==========')).toBe('Scheduling');
    expect(headingLevel('Round\nrobin\n---')).toBe(2);
    expect(headingWords('Round\nrobin\n---')).toBe('Round robin');
  });
});

describe('isAnswerable', () => {
  it('refuses headings, rules and empty blocks', () => {
    expect(isAnswerable('heading', '# Scheduling')).toBe(false);
    expect(isAnswerable('rule', '---')).toBe(false);
    expect(isAnswerable('paragraph', '   ')).toBe(false);
    expect(isAnswerable('code', '```\n```')).toBe(false);
    expect(isAnswerable('math', '$$\n$$')).toBe(false);
  });

  it('refuses a paragraph or list of inline tags only', () => {
    expect(isAnswerable('paragraph', '#math #exam-week')).toBe(false);
    expect(isAnswerable('paragraph', '#数学 #期末/复习')).toBe(false);
    expect(isAnswerable('list', '- #todo\n- #later')).toBe(false);
  });

  it('refuses a lone image, whatever its alt text', () => {
    expect(isAnswerable('paragraph', '![TLB diagram](tlb.png)')).toBe(false);
    expect(isAnswerable('paragraph', '![[scan.jpg]]')).toBe(false);
    expect(isAnswerable('html', '<img src="a.png" alt="A">')).toBe(false);
    expect(isAnswerable('paragraph', '[![badge](b.svg)](https://example.com)')).toBe(false);
  });

  it('offers text beside tags and images, and what only looks like a tag', () => {
    expect(isAnswerable('paragraph', '#math Eigenvalues solve det(A − λI) = 0.')).toBe(true);
    expect(isAnswerable('paragraph', '![TLB](tlb.png) The TLB caches entries.')).toBe(true);
    expect(isAnswerable('paragraph', '`#include <stdio.h>`')).toBe(true);
    expect(isAnswerable('paragraph', '#2024')).toBe(true);
    expect(isAnswerable('code', '    # build step')).toBe(true);
    expect(isAnswerable('math', '$$ E = mc^2 $$')).toBe(true);
    expect(isAnswerable('table', '| CPU | Cores |\n|---|---|\n| M1 | 8 |')).toBe(true);
  });

  it('reads only the start of a huge block, and does not throw one out on that alone', () => {
    expect(isAnswerable('paragraph', `${'#tag '.repeat(2000)} and then the answer`)).toBe(true);
  });
});

describe('choiceType', () => {
  it('keeps the parser types and reads an unknown one as a paragraph', () => {
    expect(choiceType('heading')).toBe('heading');
    expect(choiceType('math')).toBe('math');
    expect(choiceType('callout')).toBe('paragraph');
  });
});
