/** A picture's width and height. */
export interface Box {
  width: number;
  height: number;
}

/**
 * The size a note asks for a picture: Obsidian's `|200` (the width) or `|200x100` (both), in CSS
 * pixels, as the Document AST carries them on an image node's attributes. Anything not a positive
 * number is as if not written.
 */
export interface AskedSize {
  readonly width?: unknown;
  readonly height?: unknown;
}

const positive = (value: unknown): value is number => typeof value === 'number' && value > 0;

/**
 * The box a picture takes in an export, in CSS pixels: the width the note asks for with the height
 * in proportion unless asked too, else the picture's own size; then shrunk, keeping its shape, to
 * fit `room` (the column's width, and the page's height where the format breaks pages itself).
 * Not rounded: each format rounds to its own unit.
 */
export function pictureBox(natural: Box, asked: AskedSize, room: { width: number; height?: number }): Box {
  const sized = positive(asked.width)
    ? {
        width: asked.width,
        height: positive(asked.height)
          ? asked.height
          : (asked.width * natural.height) / Math.max(1, natural.width),
      }
    : natural;
  const scale = Math.min(
    1,
    room.width / Math.max(1, sized.width),
    room.height === undefined ? 1 : room.height / Math.max(1, sized.height),
  );
  return { width: sized.width * scale, height: sized.height * scale };
}
