// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createMarkdownParser } from '../../core/markdown/syntax';
import { obsidianPlugin } from './obsidian-plugin';
import { renderMarkdownSafe } from './render-markdown';

function render(source: string): Document {
  return new DOMParser().parseFromString(renderMarkdownSafe(source), 'text/html');
}

describe('preview: Obsidian syntax', () => {
  it('renders no comment text, inline or block, but keeps %% in code', () => {
    const doc = render('Seen %%hidden one%% here\n\n%%\nhidden two\n\nhidden three\n%%\n\n`%%kept%%`');
    const text = doc.body.textContent ?? '';
    expect(text).not.toContain('hidden');
    expect(text).toContain('Seen');
    expect(doc.querySelector('code')?.textContent).toBe('%%kept%%');
  });

  it('renders callouts as titled boxes, foldable ones as details', () => {
    const doc = render(
      '> [!note] Plain box\n> Body\n\n> [!warning]- Folded\n> Hidden body\n\n> [!tip]+ Open\n> Shown body',
    );
    const [plain, folded, open] = [...doc.querySelectorAll('.callout')];
    expect(plain?.tagName).toBe('DIV');
    expect(plain?.getAttribute('data-callout')).toBe('note');
    expect(plain?.querySelector('.callout-title')?.textContent).toBe('Plain box');
    expect(folded?.tagName).toBe('DETAILS');
    expect(folded?.hasAttribute('open')).toBe(false);
    expect(folded?.querySelector('summary')?.textContent).toBe('Folded');
    expect(open?.hasAttribute('open')).toBe(true);
    expect(doc.body.textContent).not.toContain('[!');
  });

  it('renders highlights as mark and block ids as empty anchors', () => {
    const doc = render('A ==bright== line ^blk10');
    expect(doc.querySelector('mark')?.textContent).toBe('bright');
    expect(doc.querySelector('[data-block-id]')?.getAttribute('data-block-id')).toBe('blk10');
    expect(doc.body.textContent?.trim()).toBe('A bright line');
  });

  it('renders a note embed as a card around the link, without the "!"', () => {
    const doc = render('![[Note 1]]');
    const link = doc.querySelector('.note-embed a.wikilink');
    expect(link?.getAttribute('data-wikilink')).toBe('Note 1');
    expect(doc.body.textContent?.trim()).toBe('Note 1');
  });

  it('renders a Markdown link to a .md note as an in-app wikilink', () => {
    const doc = render(
      '[md link](Note%2010.md) and [x](Folder/Note.md#Heading) and [web](https://a.example/b.md)',
    );
    const [first, second, web] = [...doc.querySelectorAll('a')];
    expect(first?.className).toBe('wikilink');
    expect(first?.getAttribute('data-wikilink')).toBe('Note 10.md');
    expect(first?.getAttribute('href')).toBe('#/wiki/Note%2010.md');
    expect(second?.getAttribute('data-wikilink')).toBe('Folder/Note.md');
    expect(second?.getAttribute('data-wikilink-fragment')).toBe('Heading');
    expect(web?.className).toBe('');
    expect(web?.getAttribute('href')).toBe('https://a.example/b.md');
  });

  it('still drops what the note may not inject into a callout', () => {
    const doc = render('> [!note] <img src=x onerror=alert(1)>\n> <script>alert(1)</script>');
    expect(doc.querySelector('script')).toBeNull();
    expect(doc.querySelector('[onerror]')).toBeNull();
  });

  it('draws a picture at the size Obsidian wrote, keeping the ratio asked for', () => {
    const doc = render('![photo|200](a.png) ![Sunset|200x100](b.png)');
    const [width, both] = [...doc.querySelectorAll('img')];
    expect(width?.getAttribute('alt')).toBe('photo');
    expect(width?.getAttribute('width')).toBe('200');
    expect(width?.hasAttribute('height')).toBe(false);
    expect(both?.getAttribute('alt')).toBe('Sunset');
    expect(both?.getAttribute('width')).toBe('200');
    expect(both?.getAttribute('height')).toBe('100');
    expect(both?.getAttribute('style')).toContain('aspect-ratio: 200 / 100');
  });

  it("titles an untitled callout through the renderer's own words, an own kind capitalised", () => {
    const md = createMarkdownParser().use(obsidianPlugin, {
      calloutTitle: (kind: string) => (kind === 'tip' ? '提示' : kind.toUpperCase()),
    });
    const doc = new DOMParser().parseFromString(
      md.render('> [!tip]\n> Advice\n\n> [!tip] Mine\n> Advice\n\n> [!recipe]\n> Steps'),
      'text/html',
    );
    const titles = [...doc.querySelectorAll('.callout-title')].map((title) => title.textContent);
    expect(titles).toEqual(['提示', 'Mine', 'RECIPE']);
    // The app's renderer: English until the language is switched.
    const app = render('> [!tip]\n> Advice\n\n> [!recipe]\n> Steps');
    expect([...app.querySelectorAll('.callout-title')].map((title) => title.textContent)).toEqual([
      'Tip',
      'Recipe',
    ]);
  });
});
