/**
 * Room at the foot of a page for its footnotes, as LaTeX and Word share it out: a note goes
 * on the page whose text refers to it, the text above giving way to it; a note too long for
 * what is left of that page goes on at the foot of the next. Pure arithmetic over line
 * heights, so the PDF layout's page breaks can be tested without drawing.
 */

/** One line of a footnote as the foot sets it. */
export interface FootLine {
  height: number;
}

/** Where a footnote's lines go: at this page's foot, and on at the next page's. */
export interface FootFit<T> {
  placed: T[];
  carried: T[];
}

/** The foot's height: its lines and the short rule over them; nothing without lines. */
export function footHeight(lines: readonly FootLine[], separator: number): number {
  return lines.length === 0 ? 0 : separator + lines.reduce((sum, line) => sum + line.height, 0);
}

/** As many of `lines`, in order, as fit in `space`: at least one where `atLeastOne` says so. */
function take<T extends FootLine>(lines: readonly T[], space: number, atLeastOne: boolean): FootFit<T> {
  let used = 0;
  let count = 0;
  for (const line of lines) {
    if (used + line.height > space && !(atLeastOne && count === 0)) break;
    used += line.height;
    count += 1;
  }
  return { placed: lines.slice(0, count), carried: lines.slice(count) };
}

/**
 * Where the notes first referred to on a body line go, or `undefined` when the line must
 * move to the next page instead. `room` is the height from the line's top down to the
 * bottom margin; `foot` what the page's foot already holds. The line stays where at
 * least the first of the notes' lines fits under it (the rest go on at the next page's
 * foot), or where it is the page's first line, which would move in vain.
 */
export function fitReferringLine<T extends FootLine>(options: {
  room: number;
  lineHeight: number;
  foot: readonly FootLine[];
  separator: number;
  notes: readonly T[];
  pageTop: boolean;
}): FootFit<T> | undefined {
  const { room, lineHeight, foot, separator, notes, pageTop } = options;
  const space = room - lineHeight - footHeight(foot, separator) - (foot.length === 0 ? separator : 0);
  const fit = take(notes, space, false);
  if (fit.carried.length === 0 || fit.placed.length > 0 || pageTop) return fit;
  return undefined;
}

/**
 * A new page's foot: the lines carried over from the page before, as many as `capacity`
 * (the height the foot may take) holds, the first of them always, so a note longer than
 * a page still moves on.
 */
export function carryOver<T extends FootLine>(
  lines: readonly T[],
  capacity: number,
  separator: number,
): FootFit<T> {
  return take(lines, capacity - separator, true);
}
