import { describe, expect, it } from 'vitest';
import { checkResource, mimeForPath, sniffResource, toDataUrl } from './resource-mime';

const bytes = (...values: Array<number | string>): Uint8Array =>
  new Uint8Array(
    values.flatMap((value) =>
      typeof value === 'string' ? [...value].map((char) => char.charCodeAt(0)) : [value],
    ),
  );

const SAMPLES: ReadonlyArray<[string, string, Uint8Array]> = [
  ['a.png', 'image/png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0)],
  ['a.jpg', 'image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10)],
  ['a.gif', 'image/gif', bytes('GIF89a', 1, 0)],
  ['a.webp', 'image/webp', bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 ')],
  ['a.avif', 'image/avif', bytes(0, 0, 0, 0x1c, 'ftypavif')],
  ['a.woff', 'font/woff', bytes('wOFF', 0, 1)],
  ['a.woff2', 'font/woff2', bytes('wOF2', 0, 1)],
  ['a.ttf', 'font/ttf', bytes(0, 1, 0, 0, 0, 0x10)],
  ['a.otf', 'font/otf', bytes('OTTO', 0, 0x10)],
  [
    'a.svg',
    'image/svg+xml',
    new TextEncoder().encode(
      '\uFEFF<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"/>',
    ),
  ],
];

describe('resource types from their bytes', () => {
  it.each(SAMPLES)('%s is %s', (path, mime, content) => {
    expect(sniffResource(content)?.mime).toBe(mime);
    expect(checkResource(path, content)?.mime).toBe(mime);
  });

  it('refuses bytes that are not an image or font, whatever the name says', () => {
    expect(checkResource('evil.png', bytes('<html><script>alert(1)</script>'))).toBeNull();
    expect(checkResource('evil.svg', bytes('<html><svg></svg></html>'))).toBeNull();
    expect(sniffResource(new Uint8Array())).toBeNull();
  });

  it('refuses a real image under another type name, and unknown extensions', () => {
    const png = SAMPLES[0]![2];
    expect(checkResource('font.woff2', png)).toBeNull();
    expect(checkResource('script.js', png)).toBeNull();
    expect(mimeForPath('noextension')).toBeNull();
  });

  it('encodes a resource as a data URL', () => {
    expect(toDataUrl('image/png', bytes('ab'))).toBe('data:image/png;base64,YWI=');
  });
});
