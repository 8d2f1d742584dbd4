import { createNote, expect, openApp, test } from './fixtures';

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('an export with five warnings names the first three in Chinese and lists all of them on request', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(
      page,
      '讲义 lecture',
      '![示意图](https://example.com/figure.png)\n\n' +
        '```function-plot\ny = sin(x) | lable: 正弦 | color: #12\ndomian: [0, 5]\nzoom: 2\n```\n',
    );
    const download = page.waitForEvent('download');
    await page.getByTestId('export-note').click();
    await page.getByTestId('export-format-pdf').click();
    await download;
    const toast = page.getByTestId('toast').filter({ hasText: '已导出 讲义 lecture.pdf' });
    await expect(toast).toContainText('已导出 讲义 lecture.pdf，有 5 条警告：');
    await expect(toast).toContainText('。另有 2 条。');
    await expect(toast).not.toContainText('。；');
    await expect(toast).not.toContainText('？；');
    await expect(toast).not.toContainText('Unknown');

    await toast.getByRole('button', { name: '查看全部', exact: true }).click();
    const list = page.getByTestId('export-warnings');
    await expect(list.getByRole('heading')).toHaveText('讲义 lecture.pdf 的警告');
    await expect(list.locator('li')).toHaveCount(5);
    for (const warning of [
      'PDF：链接到网络的图片以替代文字显示（导出不会下载图片）。',
      '未知设置“domian”已忽略——你是不是想写“domain”？',
      '未知设置“zoom”已忽略。',
      '未知选项“lable: 正弦”已忽略——你是不是想写“label”？',
      '颜色“#12”已忽略：请用 #rgb、#rrggbb 或颜色名。',
    ]) {
      await expect(list.locator('li').filter({ hasText: warning })).toHaveCount(1);
    }
    await page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
  });
});
