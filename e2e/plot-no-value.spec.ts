import { expect, previewNewNote, test } from './fixtures';

test('a plot whose function has no value says so in words; the others of the block are still drawn', async ({
  page,
}) => {
  const preview = await previewNewNote(
    page,
    'Plots without values',
    '```function-plot\ny = 0/0\n```\n\n```function-plot\ny = sqrt(x)\ny = x | label: line\ndomain: -5, -1\n```\n',
  );
  const nothing = preview.locator('.function-plot-block').nth(0);
  const partly = preview.locator('.function-plot-block').nth(1);
  const error = nothing.locator('.plot-error');
  await expect(error).toHaveAttribute('data-error-code', 'FUNCTION_PLOT_RENDER_FAILED');
  await expect(error).toHaveText('Plot could not be drawn: y = 0/0 has no value to draw between -10 and 10.');
  await expect(nothing.locator('pre')).toHaveText('y = 0/0');

  await expect(partly.locator('.function-plot-chart path.line')).toHaveCount(1);
  await expect(partly.locator('.plot-legend')).toContainText('line');
  await expect(partly.locator('.plot-warning')).toHaveText(
    'Not drawn: y = sqrt(x) has no value between -5 and -1.',
  );
  await expect(partly.locator('.plot-error')).toHaveCount(0);
});

test('panning a plot to where its function has no value keeps the chart working', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const preview = await previewNewNote(
    page,
    'Square root',
    '```function-plot\ny = sqrt(x)\ndomain: 0, 4\n```\n',
  );
  const chart = preview.locator('.function-plot-chart svg').first();
  const curve = preview.locator('.function-plot-chart path.line');
  await expect(curve).toHaveCount(1);
  const ticks = () => preview.locator('.function-plot-chart .x.axis .tick text').allTextContents();
  const before = await ticks();
  const box = (await chart.boundingBox())!;
  const drag = async (from: number, to: number) => {
    await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * to, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  };
  // Drag the view right by more than its width: only x < 0 is shown, where sqrt has no value.
  for (let step = 0; step < 3; step++) await drag(0.2, 0.85);
  await expect.poll(ticks).not.toEqual(before);
  await expect(curve).toHaveCount(0);
  // ...and back: the curve is drawn again.
  for (let step = 0; step < 3; step++) await drag(0.85, 0.2);
  await expect.poll(ticks).toEqual(before);
  await expect(curve).toHaveCount(1);
  expect(errors).toEqual([]);
});
