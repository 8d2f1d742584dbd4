// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdownSafe } from './render-markdown';

function headings(source: string): { tag: string; level: string | null }[] {
  const doc = new DOMParser().parseFromString(renderMarkdownSafe(source), 'text/html');
  return Array.from(doc.querySelectorAll('h1, h2, h3, h4, h5, h6'), (heading) => ({
    tag: heading.tagName.toLowerCase(),
    level: heading.getAttribute('aria-level'),
  }));
}

describe('note headings in the preview', () => {
  it('are spoken one level below the page heading, in the same elements (and looks)', () => {
    expect(headings('# A\n\n## B\n\n### C')).toEqual([
      { tag: 'h1', level: '2' },
      { tag: 'h2', level: '3' },
      { tag: 'h3', level: '4' },
    ]);
  });

  it('stop at level 6', () => {
    expect(headings('##### E\n\n###### F')).toEqual([
      { tag: 'h5', level: '6' },
      { tag: 'h6', level: '6' },
    ]);
  });
});
