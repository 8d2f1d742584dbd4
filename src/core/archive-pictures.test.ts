import { describe, expect, it } from 'vitest';
import {
  exportedPictureLinks,
  findImageLinks,
  linkPath,
  PictureIndex,
  replaceLinks,
  resolvedPictureLinks,
  storedPictureLink,
} from './archive-pictures';

const targets = (text: string) => findImageLinks(text).map((link) => `${link.kind}:${link.target}`);

describe('findImageLinks', () => {
  it('finds Markdown and Obsidian picture links in text order, with their alt text', () => {
    const text = [
      '# 图',
      'Before ![架构 \\[v2\\]](img/arch.png "title") and ![[diagram.png|300]].',
      '![](<assets/photo one.jpg>)',
      '![[folder/x.webp|说明]] [not a picture](a.png)',
    ].join('\n');
    const links = findImageLinks(text);
    expect(links.map((link) => [link.kind, link.target, link.alt])).toEqual([
      ['markdown', 'img/arch.png', '架构 \\[v2\\]'],
      ['wiki', 'diagram.png', '300'],
      ['markdown', '<assets/photo one.jpg>', ''],
      ['wiki', 'folder/x.webp', '说明'],
    ]);
    expect(text.slice(links[0]!.start, links[0]!.end)).toBe('![架构 \\[v2\\]](img/arch.png "title")');
  });

  it('leaves links inside fenced code and inline code alone', () => {
    const text = [
      'Real ![a](a.png)',
      '```md',
      '![in fence](b.png)',
      '```',
      'Inline `![[c.png]]` and ``![d](d.png)`` but ![[e.png]]',
      '~~~',
      '![unclosed](f.png)',
    ].join('\n');
    expect(targets(text)).toEqual(['markdown:a.png', 'wiki:e.png']);
  });

  it('finds nothing in text without a picture link', () => {
    expect(findImageLinks('plain [[wiki]] text [link](x.png)')).toEqual([]);
  });
});

describe('linkPath', () => {
  const path = (text: string) => linkPath(findImageLinks(text)[0]!);

  it('decodes the path and drops a query or fragment', () => {
    expect(path('![](photo%20one.jpg?raw=1#top)')).toBe('photo one.jpg');
    expect(path('![](<my pics/a b.PNG>)')).toBe('my pics/a b.PNG');
    expect(path('![](bad%zz.png)')).toBe('bad%zz.png');
    expect(path('![[sub\\x.gif]]')).toBe('sub/x.gif');
  });

  it('is null for URLs, stored pictures, anchors and files that are no pictures', () => {
    for (const text of [
      '![](https://example.com/a.png)',
      '![](data:image/png;base64,AAAA)',
      '![](attachment:att_1)',
      '![](//cdn.example.com/a.png)',
      '![](#a.png)',
      '![](notes.pdf)',
      '![[Other note]]',
      '![[diagram.svg]]',
    ]) {
      expect(path(text), text).toBeNull();
    }
  });
});

describe('PictureIndex.resolve', () => {
  const index = new PictureIndex([
    'vault/notes/img/a.png',
    'vault/assets/diagram.png',
    'vault/assets/old/diagram.png',
    'vault/assets/photo one.jpg',
    'vault/top.png',
  ]);
  const resolve = (text: string, notePath = 'vault/notes/n.md') =>
    index.resolve(findImageLinks(text)[0]!, notePath);

  it("follows a Markdown link relative to the note's folder", () => {
    expect(resolve('![](img/a.png)')).toBe('vault/notes/img/a.png');
    expect(resolve('![](./img/../img/a.png)')).toBe('vault/notes/img/a.png');
    expect(resolve('![](../assets/photo%20one.jpg)')).toBe('vault/assets/photo one.jpg');
    expect(resolve('![](../top.png)')).toBe('vault/top.png');
  });

  it("follows a path from the vault's top, whatever folder wraps the vault", () => {
    expect(resolve('![](assets/diagram.png)')).toBe('vault/assets/diagram.png');
    expect(resolve('![](/assets/diagram.png)')).toBe('vault/assets/diagram.png');
    expect(resolve('![[assets/old/diagram.png]]')).toBe('vault/assets/old/diagram.png');
  });

  it('finds a bare name anywhere, the shortest path first, in any letter case', () => {
    expect(resolve('![[diagram.png]]')).toBe('vault/assets/diagram.png');
    expect(resolve('![[A.PNG]]')).toBe('vault/notes/img/a.png');
  });

  it('is null for a picture the archive does not hold or a path climbing out of it', () => {
    expect(resolve('![](missing.png)')).toBeNull();
    expect(resolve('![](../../../../top.png)', 'n.md')).toBeNull();
    expect(resolve('![](https://example.com/top.png)')).toBeNull();
  });
});

describe('relinking', () => {
  it('gives a wiki picture its alt text and keeps its size, and keeps a Markdown alt as written', () => {
    const [sized, named, markdown] = findImageLinks(
      '![[my diagram.png|300x200]] ![[x.png|架构 v1.2]] ![a \\[b\\]](x.png)',
    );
    expect(storedPictureLink(sized!, 'vault/my diagram.png', 'att_1')).toBe(
      '![my diagram|300x200](attachment:att_1)',
    );
    expect(storedPictureLink(named!, 'vault/x.png', 'att_2')).toBe('![架构 v1.2](attachment:att_2)');
    expect(storedPictureLink(markdown!, 'vault/x.png', 'att_3')).toBe('![a \\[b\\]](attachment:att_3)');
  });

  it('keeps an Obsidian size through import and export, wiki or Markdown, with or without a caption', async () => {
    const [width, captioned, markdown] = findImageLinks(
      '![[photo.png|200]] ![[photo.png|Sunset|200x100]] ![Sunset|120](photo.png)',
    );
    expect(storedPictureLink(width!, 'vault/photo.png', 'att_1')).toBe('![photo|200](attachment:att_1)');
    expect(storedPictureLink(captioned!, 'vault/photo.png', 'att_2')).toBe(
      '![Sunset|200x100](attachment:att_2)',
    );
    expect(storedPictureLink(markdown!, 'vault/photo.png', 'att_3')).toBe('![Sunset|120](attachment:att_3)');
    const exported = await exportedPictureLinks(
      '![photo|200](attachment:att_1)',
      'Vault/Notes/Trip.md',
      async () => 'photo.png',
    );
    expect(exported.body).toBe('![photo|200](../attachments/photo.png)');
  });

  it('replaces the given links and keeps the text around them', () => {
    const text = 'a ![x](x.png) b ![[y.png]] c';
    const [x, y] = findImageLinks(text);
    expect(
      replaceLinks(text, [
        { link: y!, text: 'Y' },
        { link: x!, text: 'X' },
      ]),
    ).toBe('a X b Y c');
  });
});

describe('exportedPictureLinks', () => {
  const files: Record<string, string> = { att_png: 'att_png.png', att_jpg: 'att_jpg.jpg' };
  const fileNameOf = async (id: string) => files[id] ?? null;

  it("links stored pictures by a path from the note's folder to the export's attachments folder", async () => {
    const body = '![图 1](attachment:att_png)\n![](attachment:att_jpg) ![again](attachment:att_png)';
    const nested = await exportedPictureLinks(body, 'NotesAgent/课程/week 1/Note.md', fileNameOf);
    expect(nested.body).toBe(
      '![图 1](../../attachments/att_png.png)\n![](../../attachments/att_jpg.jpg) ![again](../../attachments/att_png.png)',
    );
    expect(nested.pictures).toEqual([
      { attachment_id: 'att_png', path: 'NotesAgent/attachments/att_png.png' },
      { attachment_id: 'att_jpg', path: 'NotesAgent/attachments/att_jpg.jpg' },
    ]);
    const top = await exportedPictureLinks('![](attachment:att_png)', 'NotesAgent/Note.md', fileNameOf);
    expect(top.body).toBe('![](attachment:att_png)'.replace('attachment:att_png', 'attachments/att_png.png'));
  });

  it('keeps the link of a picture no longer stored, and links in code, as they are', async () => {
    const body = '![gone](attachment:att_gone)\n`![](attachment:att_png)`';
    expect(await exportedPictureLinks(body, 'NotesAgent/N.md', fileNameOf)).toEqual({ body, pictures: [] });
  });

  it('percent-encodes what would end or change the link, and keeps Chinese names as they are', async () => {
    const names: Record<string, string> = {
      a: '板书.png',
      b: 'photo one (2).png',
      c: '50% #1?.png',
      d: "it's `x`.png",
    };
    const body = Object.keys(names)
      .map((id) => `![${id}](attachment:${id})`)
      .join('\n');
    const out = await exportedPictureLinks(body, 'NotesAgent/课程/N.md', async (id) => names[id] ?? null);
    expect(out.body).toBe(
      [
        '![a](../attachments/板书.png)',
        '![b](../attachments/photo%20one%20%282%29.png)',
        '![c](../attachments/50%25%20%231%3F.png)',
        '![d](../attachments/it%27s%20%60x%60.png)',
      ].join('\n'),
    );
    // Read back as the import reads it, each link names its file again.
    const index = new PictureIndex(out.pictures.map(({ path }) => path));
    const resolved = resolvedPictureLinks(out.body, 'NotesAgent/课程/N.md', index).map(({ path }) => path);
    expect(resolved).toEqual(Object.values(names).map((name) => `NotesAgent/attachments/${name}`));
  });
});
