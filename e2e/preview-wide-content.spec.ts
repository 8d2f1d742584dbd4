import { createNote, expect, openApp, test } from './fixtures';

const TABLE = [
  '| Algorithm | Preemptive | Starvation | Throughput | 时间片轮转 | Overhead |',
  '|---|---|---|---|---|---|',
  '| Round Robin | yes | no | medium | 时间片用完就排到队尾 | context switches |',
].join('\n');

const FORMULA =
  '$$ T_{\\text{turnaround}} = T_{\\text{finish}} - T_{\\text{arrival}}, \\quad W = T_{\\text{turnaround}} - T_{\\text{burst}}, \\quad \\int_0^\\infty e^{-\\lambda t}\\,dt = \\frac{1}{\\lambda}, \\quad \\sum_{i=1}^{n} \\frac{C_i}{T_i} \\le n\\left(2^{1/n} - 1\\right) $$';

test('a wide table keeps its header words whole, and a formula wider than the preview scrolls', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Scheduling', `${TABLE}\n\n${FORMULA}\n`);
  const preview = page.getByTestId('preview');
  await expect(preview.locator('th')).toHaveCount(6);

  // Each header reads on one line: no "Algorith|m", no "时间片轮|转".
  const headerLines = await preview.locator('th').evaluateAll((cells) =>
    cells.map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
      return `${cell.textContent}: ${tops.size}`;
    }),
  );
  expect(headerLines).toEqual([
    'Algorithm: 1',
    'Preemptive: 1',
    'Starvation: 1',
    'Throughput: 1',
    '时间片轮转: 1',
    'Overhead: 1',
  ]);

  // The formula is wider than the pane: it can be scrolled to its end instead of being cut off.
  const formula = preview.locator('.math-block');
  await expect(formula.locator('.katex')).toBeVisible();
  const scrolled = await formula.evaluate((block) => {
    const wider = block.scrollWidth > block.clientWidth;
    block.scrollLeft = block.scrollWidth;
    const end = block.querySelector('.katex-html')!.getBoundingClientRect().right;
    return { wider, scrollLeft: block.scrollLeft, endShown: end <= block.getBoundingClientRect().right + 1 };
  });
  expect(scrolled).toEqual({ wider: true, scrollLeft: expect.any(Number), endShown: true });
  expect(scrolled.scrollLeft).toBeGreaterThan(0);
});
