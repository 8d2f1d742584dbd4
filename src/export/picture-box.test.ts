import { describe, expect, it } from 'vitest';
import { pictureBox } from './picture-box';

const photo = { width: 40, height: 20 };
const page = { width: 600 };

describe('pictureBox', () => {
  it('keeps a picture nothing sizes at its own size', () => {
    expect(pictureBox(photo, {}, page)).toEqual({ width: 40, height: 20 });
  });

  it('takes the width of `|200` with the height in proportion', () => {
    expect(pictureBox(photo, { width: 200 }, page)).toEqual({ width: 200, height: 100 });
  });

  it('takes both sides of `|120x90`, whatever the picture’s shape', () => {
    expect(pictureBox(photo, { width: 120, height: 90 }, page)).toEqual({ width: 120, height: 90 });
  });

  it('treats a size that is not a positive number as not written', () => {
    expect(pictureBox(photo, { width: 0 }, page)).toEqual({ width: 40, height: 20 });
    expect(pictureBox(photo, { width: '200' }, page)).toEqual({ width: 40, height: 20 });
    expect(pictureBox(photo, { width: 200, height: -1 }, page)).toEqual({ width: 200, height: 100 });
  });

  it('shrinks a picture wider than the page to its width, keeping the shape', () => {
    expect(pictureBox({ width: 1200, height: 300 }, {}, page)).toEqual({ width: 600, height: 150 });
    expect(pictureBox(photo, { width: 900, height: 300 }, page)).toEqual({ width: 600, height: 200 });
  });

  it('shrinks a picture taller than the page to its height where there is one', () => {
    const tall = { width: 400, height: 2000 };
    expect(pictureBox(tall, {}, { width: 600, height: 1000 })).toEqual({ width: 200, height: 1000 });
    expect(pictureBox(tall, {}, page)).toEqual({ width: 400, height: 2000 });
  });

  it('does not divide by a zero-sized picture', () => {
    expect(pictureBox({ width: 0, height: 0 }, { width: 100 }, page)).toEqual({ width: 100, height: 0 });
  });
});
