import { describe, expect, it } from 'vitest';
import { ExportPictureNames, safePictureFileName } from './export-picture-names';

describe('safePictureFileName', () => {
  it('keeps a safe name as it is, Chinese and spaces included', () => {
    expect(safePictureFileName('diagram.png', 'png')).toBe('diagram.png');
    expect(safePictureFileName('image.png', 'png')).toBe('image.png');
    expect(safePictureFileName('板书.png', 'png')).toBe('板书.png');
    expect(safePictureFileName('photo one (2).png', 'png')).toBe('photo one (2).png');
  });

  it('ends in the extension the bytes decide, keeping the name’s own spelling of the same format', () => {
    expect(safePictureFileName('diagram.png', 'jpg')).toBe('diagram.jpg');
    expect(safePictureFileName('Photo.JPEG', 'jpg')).toBe('Photo.JPEG');
    expect(safePictureFileName('scan.PNG', 'png')).toBe('scan.PNG');
    expect(safePictureFileName('notes.txt', 'png')).toBe('notes.txt.png');
    expect(safePictureFileName('screenshot', 'webp')).toBe('screenshot.webp');
  });

  it('drops path parts, control characters and characters file systems or Obsidian refuse', () => {
    expect(safePictureFileName('../../etc/passwd.png', 'png')).toBe('passwd.png');
    expect(safePictureFileName('C:\\Users\\me\\a.png', 'png')).toBe('a.png');
    expect(safePictureFileName('a<b>c:d"e|f?g*h.png', 'png')).toBe('abcdefgh.png');
    expect(safePictureFileName('tab\there\u0000\u007f.png', 'png')).toBe('tabhere.png');
    expect(safePictureFileName('[[x]] #tag ^block.png', 'png')).toBe('x tag block.png');
  });

  it('drops leading and trailing dots and spaces, and guards Windows device names', () => {
    expect(safePictureFileName('  .hidden. .png', 'png')).toBe('hidden.png');
    expect(safePictureFileName('CON.png', 'png')).toBe('CON_.png');
    expect(safePictureFileName('lpt1.gif', 'gif')).toBe('lpt1_.gif');
    expect(safePictureFileName('console.png', 'png')).toBe('console.png');
  });

  it('gives null when nothing usable is left', () => {
    expect(safePictureFileName('', 'png')).toBeNull();
    expect(safePictureFileName('.png', 'png')).toBeNull();
    expect(safePictureFileName('???.png', 'png')).toBeNull();
    expect(safePictureFileName(' . - _ ', 'png')).toBeNull();
    expect(safePictureFileName('folder/', 'png')).toBeNull();
  });

  it('shortens a long name to fit a file system, never splitting a character', () => {
    const name = safePictureFileName(`${'图'.repeat(200)}.png`, 'png')!;
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(255);
    expect(name).toMatch(/^图+\.png$/);
    // 1 + 4 × 49 bytes fit; a 50th emoji's 4 bytes would pass the stem's 200.
    expect(safePictureFileName(`a${'😀'.repeat(60)}.png`, 'png')).toBe(`a${'😀'.repeat(49)}.png`);
  });

  it('writes one name for the composed and decomposed spelling of a character', () => {
    expect(safePictureFileName('Cafe\u0301.png', 'png')).toBe('Caf\u00e9.png');
  });
});

describe('ExportPictureNames', () => {
  it('numbers later pictures of a taken name in the order they are named, regardless of case', () => {
    const names = new ExportPictureNames();
    expect(names.nameOf('att_1', 'diagram.png', 'png')).toBe('diagram.png');
    expect(names.nameOf('att_2', 'Diagram.PNG', 'png')).toBe('Diagram (2).PNG');
    expect(names.nameOf('att_3', 'sub/diagram.png', 'png')).toBe('diagram (3).png');
    expect(names.nameOf('att_4', 'diagram.png', 'jpg')).toBe('diagram.jpg');
  });

  it('names a picture once, however often it is asked', () => {
    const names = new ExportPictureNames();
    expect(names.nameOf('att_1', 'image.png', 'png')).toBe('image.png');
    expect(names.nameOf('att_2', 'image.png', 'png')).toBe('image (2).png');
    expect(names.nameOf('att_1', 'image.png', 'png')).toBe('image.png');
    expect(names.nameOf('att_3', 'image.png', 'png')).toBe('image (3).png');
  });

  it('steps past an original name that looks like a copy number', () => {
    const names = new ExportPictureNames();
    expect(names.nameOf('att_1', 'a (2).png', 'png')).toBe('a (2).png');
    expect(names.nameOf('att_2', 'a.png', 'png')).toBe('a.png');
    expect(names.nameOf('att_3', 'a.png', 'png')).toBe('a (3).png');
  });

  it('falls back to the id when nothing of the name is usable', () => {
    const names = new ExportPictureNames();
    expect(names.nameOf('attachment_133e', '???', 'png')).toBe('attachment_133e.png');
    expect(names.nameOf('attachment_9f', '', 'gif')).toBe('attachment_9f.gif');
  });

  it('keeps Chinese names and numbers their copies', () => {
    const names = new ExportPictureNames();
    expect(names.nameOf('att_1', '板书.png', 'png')).toBe('板书.png');
    expect(names.nameOf('att_2', '板书.png', 'png')).toBe('板书 (2).png');
  });
});
