import { describe, expect, it } from 'vitest';
import { passageOf } from './cited-passage';

const CITED = [
  { block_id: 'block_header', start_line: 0 },
  { block_id: 'block_a', start_line: 2 },
  { block_id: 'block_b', start_line: 4 },
];

describe('passageOf', () => {
  it('is the revealed block’s own citation', () => {
    expect(passageOf(CITED, { blockId: 'block_b', line: 99 })).toBe(CITED[2]);
  });

  it('falls back to the cited block the line lies in when the block has no citation of its own', () => {
    expect(passageOf(CITED, { blockId: 'block_edited', line: 3 })).toBe(CITED[1]);
    expect(passageOf(CITED, { blockId: 'block_edited', line: 40 })).toBe(CITED[2]);
  });

  it('is null when nothing is cited at or before the line', () => {
    expect(passageOf(CITED.slice(1), { blockId: 'block_new', line: 0 })).toBeNull();
    expect(passageOf([], { blockId: 'block_a', line: 2 })).toBeNull();
  });
});
