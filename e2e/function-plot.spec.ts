import type { Locator } from '@playwright/test';
import { expect, previewNewNote, test } from './fixtures';

/** The drawn SVG's width and the width its chart container offers, in CSS pixels. */
async function widths(chart: Locator): Promise<{ svg: number; container: number }> {
  return chart.evaluate((element) => ({
    svg: Number(element.querySelector('svg')?.getAttribute('width')),
    container: element.getBoundingClientRect().width,
  }));
}

test('a plot with parameters is drawn, and follows its pane when the window is resized', async ({
  page,
  requestLog,
}) => {
  await page.setViewportSize({ width: 1400, height: 800 });
  const preview = await previewNewNote(
    page,
    'Waves',
    '```function-plot\ny = a * sin(k * x) | label: wave\nparam: a = 2, k = 0.5\ndomain: -6, 6\n```\n',
  );
  const chart = preview.locator('.function-plot-chart');
  await expect(chart.locator('path.line')).toHaveCount(1);
  await expect(preview.locator('.plot-error')).toHaveCount(0);
  // The curve's label is shown, as the exports show it, in the curve's colour.
  await expect(chart.locator('.plot-legend li')).toHaveText(['wave']);
  const colours = await chart.evaluate((element) => ({
    line: getComputedStyle(element.querySelector('path.line')!).stroke,
    swatch: getComputedStyle(element.querySelector('.plot-legend-swatch')!).backgroundColor,
  }));
  expect(colours.swatch).toBe(colours.line);

  const wide = await widths(chart);
  expect(Math.abs(wide.svg - wide.container)).toBeLessThanOrEqual(1);

  await page.setViewportSize({ width: 1000, height: 800 });
  // The shell's breakpoints decide the pane's new width: only that it changed matters.
  await expect.poll(async () => (await widths(chart)).container).not.toBe(wide.container);
  await expect
    .poll(async () => {
      const now = await widths(chart);
      return Math.abs(now.svg - now.container) <= 1;
    })
    .toBe(true);
  const resized = await widths(chart);
  expect(resized.svg).not.toBe(wide.svg);

  await page.setViewportSize({ width: 1400, height: 800 });
  await expect.poll(async () => (await widths(chart)).svg).toBe(wide.svg);
  expect(requestLog.foreign()).toEqual([]);
});

test('an undeclared parameter keeps the block as source with a located message', async ({ page }) => {
  const preview = await previewNewNote(
    page,
    'Broken wave',
    '```function-plot\nparam: a = 2\ny = a * x + b\n```\n',
  );
  const error = preview.locator('.plot-error');
  await expect(error).toHaveAttribute('data-error-code', 'FUNCTION_PLOT_EXPRESSION_UNSAFE');
  await expect(error).toContainText('(line 2, column 13)');
  await expect(preview.locator('.function-plot-block pre')).toContainText('y = a * x + b');
});

test('parameter sliders redraw the plot, keep the note text, and survive edits elsewhere', async ({
  page,
  requestLog,
}) => {
  const body = '# Lines\n\n```function-plot\ny = a * x\nparam: a = 1\ndomain: -5, 5\n```\n';
  const preview = await previewNewNote(page, 'Slopes', body);
  const curve = preview.locator('.function-plot-chart path.line');
  await expect(curve).toHaveCount(1);
  const declared = await curve.getAttribute('d');

  const slider = preview.getByRole('slider', { name: 'Parameter a' });
  const box = preview.getByRole('spinbutton', { name: 'Value of a' });
  await expect(slider).toHaveValue('1');
  await expect(box).toHaveValue('1');

  await slider.fill('-1.5');
  await expect(box).toHaveValue('-1.5');
  await expect(curve).not.toHaveAttribute('d', declared ?? '');
  const slid = await curve.getAttribute('d');

  await box.fill('0.5');
  await expect(slider).toHaveValue('0.5');
  await expect(curve).not.toHaveAttribute('d', slid ?? '');

  // The sliders explore; the note (and so every export) keeps the declared value.
  await expect(page.getByTestId('note-body')).toHaveValue(body);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  // Typing in another block leaves the drawn plot and its slider as they were.
  await page.getByTestId('note-body').fill(`${body}\nMore words below the plot.\n`);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(preview.getByText('More words below the plot.')).toBeVisible();
  await expect(curve).toHaveCount(1);
  await expect(slider).toHaveValue('0.5');
  expect(requestLog.foreign()).toEqual([]);
});

test('slid parameter values and their curve stay through a theme switch and an edit of the plot', async ({
  page,
  requestLog,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const body = '```function-plot\ny = a * x + k\nparam: a = 1, k = 0\ndomain: -5, 5\n```\n';
  const preview = await previewNewNote(page, 'Themed slopes', body);
  const curve = preview.locator('.function-plot-chart path.line');
  await expect(curve).toHaveCount(1);
  const declared = await curve.getAttribute('d');
  const lightStroke = await curve.evaluate((path) => getComputedStyle(path).stroke);

  const slider = preview.getByRole('slider', { name: 'Parameter a' });
  await slider.fill('-1.5');
  await preview.getByRole('spinbutton', { name: 'Value of k' }).fill('0.25');
  await expect(curve).not.toHaveAttribute('d', declared ?? '');
  const slid = await curve.getAttribute('d');

  // Under "follow system", the OS going dark switches the theme and redraws the chart in its colours.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => curve.evaluate((path) => getComputedStyle(path).stroke)).not.toBe(lightStroke);
  await expect(slider).toHaveValue('-1.5');
  await expect(preview.getByRole('spinbutton', { name: 'Value of a' })).toHaveValue('-1.5');
  await expect(preview.getByRole('slider', { name: 'Parameter k' })).toHaveValue('0.25');
  await expect(curve).toHaveAttribute('d', slid ?? '');

  // Editing the plot's own text redraws it from scratch; the slid values stay with it.
  const edited = body.replace('y = a * x + k', 'y = a * x + k | label: line');
  await page.getByTestId('note-body').fill(edited);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(preview.locator('.function-plot-block pre')).toContainText('label: line');
  await expect(preview.locator('.function-plot-chart')).toHaveCount(1);
  await expect(slider).toHaveValue('-1.5');
  await expect(curve).toHaveAttribute('d', slid ?? '');

  // The note, and so every export, keeps the declared values.
  await expect(page.getByTestId('note-body')).toHaveValue(edited);
  expect(requestLog.foreign()).toEqual([]);
});
