import { describe, expect, it } from 'vitest';
import { carryOver, fitReferringLine, footHeight } from './footnote-space';

const lines = (...heights: number[]) => heights.map((height, index) => ({ height, index }));

describe('room for footnotes at the foot of a page', () => {
  it('measures the foot as its lines and the rule over them, and nothing when it holds none', () => {
    expect(footHeight([], 12)).toBe(0);
    expect(footHeight(lines(10, 10), 12)).toBe(32);
  });

  it('sets a note whole under the line that refers to it when both fit', () => {
    const fit = fitReferringLine({
      room: 100,
      lineHeight: 15,
      foot: [],
      separator: 12,
      notes: lines(10, 10),
      pageTop: false,
    });
    expect(fit).toEqual({ placed: lines(10, 10), carried: [] });
  });

  it("counts the foot's rule once, when the page's first note is set", () => {
    const notes = lines(10);
    // 15 + 12 + 10 = 37: fits in 37 on a bare foot.
    expect(
      fitReferringLine({ room: 37, lineHeight: 15, foot: [], separator: 12, notes, pageTop: false }),
    ).toEqual({ placed: notes, carried: [] });
    // A foot with a line already has its rule: 15 + (12 + 10) + 10 = 47.
    expect(
      fitReferringLine({ room: 47, lineHeight: 15, foot: lines(10), separator: 12, notes, pageTop: false }),
    ).toEqual({ placed: notes, carried: [] });
    expect(
      fitReferringLine({ room: 46, lineHeight: 15, foot: lines(10), separator: 12, notes, pageTop: false }),
    ).toBeUndefined();
  });

  it('continues a note too long for the rest of the page at the next foot', () => {
    const notes = lines(10, 10, 10, 10);
    const fit = fitReferringLine({
      room: 50,
      lineHeight: 15,
      foot: [],
      separator: 12,
      notes,
      pageTop: false,
    });
    // 50 − 15 − 12 leaves 23: two of the four lines.
    expect(fit).toEqual({ placed: notes.slice(0, 2), carried: notes.slice(2) });
  });

  it('moves the line to the next page when not even the first line of its note fits', () => {
    const notes = lines(10, 10);
    expect(
      fitReferringLine({ room: 30, lineHeight: 15, foot: [], separator: 12, notes, pageTop: false }),
    ).toBeUndefined();
    // The line does not fit at all either.
    expect(
      fitReferringLine({ room: 10, lineHeight: 15, foot: [], separator: 12, notes, pageTop: false }),
    ).toBeUndefined();
  });

  it("keeps a page's first line where it is, sending what does not fit on", () => {
    const notes = lines(10, 10);
    expect(
      fitReferringLine({ room: 30, lineHeight: 15, foot: [], separator: 12, notes, pageTop: true }),
    ).toEqual({ placed: [], carried: notes });
  });

  it('fills a new foot with carried lines up to its capacity, always at least one', () => {
    const carried = lines(10, 10, 10);
    expect(carryOver(carried, 34, 12)).toEqual({ placed: carried.slice(0, 2), carried: carried.slice(2) });
    expect(carryOver(carried, 100, 12)).toEqual({ placed: carried, carried: [] });
    expect(carryOver(lines(500, 10), 100, 12)).toEqual({ placed: lines(500), carried: [lines(500, 10)[1]] });
  });
});
