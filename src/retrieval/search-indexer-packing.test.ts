import { describe, expect, it } from 'vitest';
import { PACK_NOTES, SEGMENT_STORE_FORMAT, type SegmentTally } from '../db/index-repository';
import { packingNeeded, RECENT_ROWS_LIMIT } from './search-indexer';

const tally = (over: Partial<SegmentTally>): SegmentTally => ({
  recent: [],
  packs: 0,
  packed: 0,
  hidden: 0,
  ...over,
});
const ids = (count: number) => Array.from({ length: count }, (_, i) => `n${i}`);

describe('packingNeeded', () => {
  it('leaves a packed store with few recent rows and few hidden ones alone', () => {
    expect(packingNeeded(tally({ packs: 100, packed: 10_000 }), SEGMENT_STORE_FORMAT)).toBeNull();
    expect(
      packingNeeded(
        tally({ recent: ids(RECENT_ROWS_LIMIT - 1), packs: 110, packed: 10_500, hidden: 500 }),
        SEGMENT_STORE_FORMAT,
      ),
    ).toBeNull();
    expect(packingNeeded(tally({}), SEGMENT_STORE_FORMAT)).toBeNull();
  });

  it('packs a store from before packs once, even an empty one, by appending its rows', () => {
    expect(packingNeeded(tally({ recent: ids(10_000) }), undefined)).toBe('compact');
    expect(packingNeeded(tally({}), undefined)).toBe('compact');
  });

  it('appends the recent rows as a pack once there are RECENT_ROWS_LIMIT of them', () => {
    expect(
      packingNeeded(
        tally({ recent: ids(RECENT_ROWS_LIMIT), packs: 100, packed: 10_000 }),
        SEGMENT_STORE_FORMAT,
      ),
    ).toBe('compact');
  });

  it('rewrites the packs when a quarter of their rows are hidden, or when they are many and small', () => {
    expect(packingNeeded(tally({ packs: 130, packed: 12_600, hidden: 2_600 }), SEGMENT_STORE_FORMAT)).toBe(
      'repack',
    );
    // A small notebook: a few hidden rows are not worth a rewrite.
    expect(packingNeeded(tally({ packs: 3, packed: 60, hidden: 40 }), SEGMENT_STORE_FORMAT)).toBeNull();
    expect(
      packingNeeded(tally({ packs: 2 * (10_000 / PACK_NOTES) + 5, packed: 10_000 }), SEGMENT_STORE_FORMAT),
    ).toBe('repack');
  });
});
