/**
 * WCAG 2 contrast for theme colours: what a package's code background means
 * for the syntax colours drawn on it. Pure, so the choice is testable without
 * a browser.
 */

/** An sRGB colour, channels 0–255, alpha 0–1. */
export interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
}

/** WCAG's minimum for body text (AA), which code is. */
export const MIN_TEXT_CONTRAST = 4.5;

const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTION = /^(rgba?|hsla?)\(\s*([^()]*)\)$/i;
/** The names a theme is likely to give a background; others are not resolved (the theme keeps its own colours). */
const NAMED: Readonly<Record<string, string>> = {
  black: '#000000',
  white: '#ffffff',
  transparent: '#00000000',
};

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function channel(text: string, scale: number): number | null {
  const percent = text.endsWith('%');
  const value = Number(percent ? text.slice(0, -1) : text);
  if (!Number.isFinite(value)) return null;
  return clamp(percent ? (value / 100) * scale : value, 0, scale);
}

function alphaOf(text: string | undefined): number | null {
  if (text === undefined) return 1;
  return channel(text, 1);
}

function hslToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const h = (((hue % 360) + 360) % 360) / 30;
  const a = saturation * Math.min(lightness, 1 - lightness);
  const f = (n: number): number => {
    const k = (n + h) % 12;
    return (lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))) * 255;
  };
  return [f(0), f(8), f(4)];
}

/**
 * A CSS colour as written in a theme: `#rgb`, `#rrggbb` (with alpha too),
 * `rgb()`/`rgba()` and `hsl()`/`hsla()` in comma or space syntax, `black`,
 * `white`. Anything else (other names, `color-mix()`, `var()`) is null.
 */
export function parseCssColour(text: string): Rgba | null {
  const value = text.trim().toLowerCase();
  const named = NAMED[value];
  if (named !== undefined) return parseCssColour(named);
  const hex = HEX.exec(value)?.[1];
  if (hex !== undefined) {
    const digits = hex.length <= 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
    const byte = (index: number): number => parseInt(digits.slice(index * 2, index * 2 + 2), 16);
    return { r: byte(0), g: byte(1), b: byte(2), a: digits.length === 8 ? byte(3) / 255 : 1 };
  }
  const call = FUNCTION.exec(value);
  if (!call) return null;
  const [, name, body] = call as unknown as [string, string, string];
  const [main, slashAlpha] = body.split('/').map((part) => part.trim());
  const parts = (main ?? '').split(/\s*,\s*|\s+/).filter((part) => part !== '');
  const alphaText = slashAlpha ?? (parts.length === 4 ? parts.pop() : undefined);
  if (parts.length !== 3) return null;
  const a = alphaOf(alphaText);
  if (a === null) return null;
  if (name.startsWith('rgb')) {
    const [r, g, b] = parts.map((part) => channel(part, 255));
    if (r == null || g == null || b == null) return null;
    return { r, g, b, a };
  }
  const hue = Number(parts[0]!.replace(/deg$/, ''));
  const saturation = parts[1]!.endsWith('%') ? channel(parts[1]!, 1) : null;
  const lightness = parts[2]!.endsWith('%') ? channel(parts[2]!, 1) : null;
  if (!Number.isFinite(hue) || saturation === null || lightness === null) return null;
  const [r, g, b] = hslToRgb(hue, saturation, lightness);
  return { r, g, b, a };
}

/** `top` drawn over an opaque `bottom`. */
export function composite(top: Rgba, bottom: Rgba): Rgba {
  const mix = (over: number, under: number): number => over * top.a + under * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

function linear(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance: 0 for black, 1 for white. */
export function relativeLuminance(colour: Rgba): number {
  return 0.2126 * linear(colour.r) + 0.7152 * linear(colour.g) + 0.0722 * linear(colour.b);
}

/** WCAG 2 contrast ratio, 1 (none) to 21 (black on white). */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/**
 * Whether text on this background reads best light (`dark` scheme) or dark:
 * the side where white text contrasts more than black.
 */
export function schemeForBackground(background: Rgba): 'light' | 'dark' {
  return contrastRatio(WHITE, background) > contrastRatio(BLACK, background) ? 'dark' : 'light';
}

export function toHex(colour: Rgba): string {
  const byte = (value: number): string =>
    Math.round(clamp(value, 0, 255))
      .toString(16)
      .padStart(2, '0');
  return `#${byte(colour.r)}${byte(colour.g)}${byte(colour.b)}`;
}

function mix(from: Rgba, to: Rgba, amount: number): Rgba {
  const at = (x: number, y: number): number => x + (y - x) * amount;
  return { r: at(from.r, to.r), g: at(from.g, to.g), b: at(from.b, to.b), a: 1 };
}

/**
 * `colour`, or the least change of it toward black or white (whichever the
 * background needs) that reaches `minimum` against `background`. Either
 * extreme reaches at least 4.58:1 on any background, so 4.5 is always met.
 */
export function readableOn(colour: Rgba, background: Rgba, minimum = MIN_TEXT_CONTRAST): Rgba {
  const opaque = { ...colour, a: 1 };
  if (contrastRatio(opaque, background) >= minimum) return opaque;
  const target = schemeForBackground(background) === 'dark' ? WHITE : BLACK;
  let low = 0;
  let high = 1;
  // Halving 16 times is finer than one step of a byte channel.
  for (let step = 0; step < 16; step += 1) {
    const middle = (low + high) / 2;
    if (contrastRatio(mix(opaque, target, middle), background) >= minimum) high = middle;
    else low = middle;
  }
  // Rounded to bytes it could land a hair under the minimum: step on toward the target.
  let result = parseCssColour(toHex(mix(opaque, target, high)))!;
  for (let amount = high; contrastRatio(result, background) < minimum && amount < 1;) {
    amount = Math.min(1, amount + 1 / 256);
    result = parseCssColour(toHex(mix(opaque, target, amount)))!;
  }
  return result;
}
