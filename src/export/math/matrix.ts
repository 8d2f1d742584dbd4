/** `[a, b, c, d, e, f]`, SVG's `matrix()`: a shape's own units to its parent's. */
export type Matrix = readonly [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `left` after `right`: a point goes through `right` first. */
export function multiply(left: Matrix, right: Matrix): Matrix {
  const [a, b, c, d, e, f] = left;
  const [a2, b2, c2, d2, e2, f2] = right;
  return [
    a * a2 + c * b2,
    b * a2 + d * b2,
    a * c2 + c * d2,
    b * c2 + d * d2,
    a * e2 + c * f2 + e,
    b * e2 + d * f2 + f,
  ];
}

/** An SVG `transform` attribute: its translate, scale, matrix and rotate functions, in order. */
export function parseTransform(value: string | undefined): Matrix {
  let matrix = IDENTITY;
  if (!value) return matrix;
  for (const match of value.matchAll(/(translate|scale|matrix|rotate)\s*\(([^)]*)\)/g)) {
    const numbers = (match[2] ?? '')
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    const [p = 0, q, r = 0, s = 0, t = 0, u = 0] = numbers;
    let step: Matrix;
    if (match[1] === 'translate') step = [1, 0, 0, 1, p, q ?? 0];
    else if (match[1] === 'scale') step = [p, 0, 0, q ?? p, 0, 0];
    else if (match[1] === 'matrix') step = [p, q ?? 0, r, s, t, u];
    else {
      const angle = (p * Math.PI) / 180;
      step = [Math.cos(angle), Math.sin(angle), -Math.sin(angle), Math.cos(angle), 0, 0];
    }
    matrix = multiply(matrix, step);
  }
  return matrix;
}
