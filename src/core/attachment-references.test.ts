import { describe, expect, it } from 'vitest';
import {
  addAttachmentIdsIn,
  addAttachmentIdsInValue,
  isRecognisedAttachmentId,
} from './attachment-references';

const A = 'attachment_0123456789abcdef0123456789abcdef';
const B = 'attachment_fedcba9876543210fedcba9876543210';

function idsIn(value: unknown): string[] {
  const found = new Set<string>();
  addAttachmentIdsInValue(value, found);
  return [...found].sort();
}

describe('attachment references', () => {
  it('finds ids in links, HTML, code and any case, lower-cased', () => {
    const found = new Set<string>();
    addAttachmentIdsIn(`![板书](attachment:${A})\n<img src="ATTACHMENT:${B.toUpperCase()}">`, found);
    expect([...found].sort()).toEqual([A, B]);
  });

  it('finds nothing in text without an id, or with a shortened one', () => {
    expect(idsIn('plain text about attachment_ handling')).toEqual([]);
    expect(idsIn(`attachment:${A.slice(0, -1)}`)).toEqual([]);
  });

  it('reads every string of a stored row, nested, and passes over bytes', () => {
    const row = {
      content: 'what is this?',
      images: [{ attachment_id: A, name: 'slide.png' }],
      nested: { deeper: [[`see attachment:${B}`]] },
      bytes: new TextEncoder().encode(`attachment:${B}`),
      map: new Map([['k', `attachment:${A}`]]),
      count: 3,
      none: null,
    };
    expect(idsIn(row)).toEqual([A, B]);
    expect(idsIn({ bytes: new TextEncoder().encode(A).buffer })).toEqual([]);
  });

  it('recognises only ids in the form the app makes', () => {
    expect(isRecognisedAttachmentId(A)).toBe(true);
    expect(isRecognisedAttachmentId('a1')).toBe(false);
    expect(isRecognisedAttachmentId(`${A}0`)).toBe(false);
  });
});
