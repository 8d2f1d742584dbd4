import { expect, previewNewNote, test } from './fixtures';

test('a plot without a range is scaled in the preview as its exports are', async ({ page }) => {
  const preview = await previewNewNote(page, 'Parabola', '```function-plot\ny = x^2\n```\n');
  const ticks = preview.locator('.function-plot-chart .y.axis .tick text');
  await expect(preview.locator('.function-plot-chart path.line')).toHaveCount(1);
  // The exports fit y to the values over -10…10 and number their axis 0…100.
  await expect(ticks.last()).toHaveText('100');
  await expect(ticks.first()).toHaveText('0');
});

test('a plot with a range keeps it in the preview', async ({ page }) => {
  const preview = await previewNewNote(
    page,
    'Parabola cut',
    '```function-plot\ny = x^2\nrange: -2, 4\n```\n',
  );
  const ticks = preview.locator('.function-plot-chart .y.axis .tick text');
  await expect(preview.locator('.function-plot-chart path.line')).toHaveCount(1);
  await expect(ticks.last()).toHaveText('4');
});
