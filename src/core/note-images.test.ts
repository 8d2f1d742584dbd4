import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from './markdown/document-ast';
import {
  imageAltText,
  inlineNoteImages,
  noteImageId,
  noteImageMarkdown,
  pictureInsertion,
  pictureLinesBetween,
} from './note-images';
import type { DocumentNode } from '../contracts/exports';

function images(root: DocumentNode): DocumentNode[] {
  return root.children.flatMap((child) => (child.type === 'image' ? [child] : images(child)));
}

describe('note pictures', () => {
  it('reads the attachment id of an attachment: URL and nothing else', () => {
    expect(noteImageId('attachment:attachment_0f3a')).toBe('attachment_0f3a');
    expect(noteImageId(' ATTACHMENT:abc ')).toBe('abc');
    expect(noteImageId('attachment:../secret')).toBeNull();
    expect(noteImageId('attachment:')).toBeNull();
    expect(noteImageId('https://example.com/a.png')).toBeNull();
    expect(noteImageId('data:image/png;base64,AAAA')).toBeNull();
  });

  it('names the picture after its file, one line, with its brackets escaped', () => {
    expect(imageAltText('白板 照片.JPG')).toBe('白板 照片');
    expect(imageAltText('a]b[c\n d.png')).toBe('a\\]b\\[c d');
    expect(noteImageMarkdown('image.png', 'attachment_1')).toBe('![image](attachment:attachment_1)');
  });

  it('puts inserted pictures on lines of their own', () => {
    const one = ['![a](attachment:x)'];
    expect(pictureInsertion('', 0, 0, one)).toBe('![a](attachment:x)\n');
    expect(pictureInsertion('before after', 6, 7, one)).toBe('\n![a](attachment:x)\n');
    expect(pictureInsertion('line\n\nnext', 5, 5, [...one, '![b](attachment:y)'])).toBe(
      '![a](attachment:x)\n![b](attachment:y)',
    );
    expect(pictureInsertion('end', 3, 3, one)).toBe('\n![a](attachment:x)\n');
  });

  it('decides the lines from the characters either side alone', () => {
    const one = ['![a](attachment:x)'];
    expect(pictureLinesBetween('', '', one)).toBe('![a](attachment:x)\n');
    expect(pictureLinesBetween('d', 'w', one)).toBe('\n![a](attachment:x)\n');
    expect(pictureLinesBetween('\n', '\n', one)).toBe('![a](attachment:x)');
    expect(pictureLinesBetween('.', '', one)).toBe('\n![a](attachment:x)\n');
    expect(pictureLinesBetween('\n', 'x', ['![a](attachment:x)', '![b](attachment:y)'])).toBe(
      '![a](attachment:x)\n![b](attachment:y)\n',
    );
  });

  it('embeds stored pictures as data: URLs, looking each one up once, and turns missing ones into their alt text', async () => {
    const document = documentFromMarkdown(
      '# Title\n\n![板书](attachment:a1) and ![板书](attachment:a1)\n\n- ![gone](attachment:zz)\n\n![web](https://example.com/x.png)\n',
      'Title',
    );
    const asked: string[] = [];
    const { missing } = await inlineNoteImages(document.root, async (id) => {
      asked.push(id);
      return id === 'a1' ? { mime_type: 'image/png', base64: 'iVBORw0K' } : null;
    });
    expect(asked).toEqual(['a1', 'zz']);
    expect(missing).toBe(1);
    expect(images(document.root).map((node) => node.attributes['src'])).toEqual([
      'data:image/png;base64,iVBORw0K',
      'data:image/png;base64,iVBORw0K',
      'https://example.com/x.png',
    ]);
    const text = JSON.stringify(document.root);
    expect(text).toContain('"text":"[gone]"');
    expect(text).not.toContain('attachment:zz');
  });
});
