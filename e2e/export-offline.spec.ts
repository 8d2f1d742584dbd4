import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import mammoth from 'mammoth';
import { createNote, expect, openApp, test, waitForServiceWorker } from './fixtures';

// Offline use needs the app's service worker, which other specs block (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const BODY = `# 离线导出

先来先服务 (FCFS) runs in $O(n)$ time.

| 算法 | 平均等待 |
|:--|--:|
| FCFS | 10 |

\`\`\`function-plot
y = sin(x) | label: 正弦
\`\`\`

\`\`\`mermaid
graph TD; A[就绪] --> B[运行]
\`\`\`
`;

async function download(page: Page, format: 'html' | 'pdf' | 'docx'): Promise<string> {
  const file = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId(`export-format-${format}`).click();
  const done = await file;
  expect(done.suggestedFilename()).toBe(`离线导出.${format}`);
  return (await done.path())!;
}

test('once the PDF font is cached, a note exports to every format with the network off', async ({
  page,
  context,
  requestLog,
}) => {
  test.setTimeout(180_000);
  await openApp(page);
  await waitForServiceWorker(page);
  await createNote(page, '离线导出', BODY);
  // The first PDF export fetches the CJK font and the subsetter, and keeps them.
  await download(page, 'pdf');

  await context.setOffline(true);
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.getByTestId('note-item').filter({ hasText: '离线导出' }).click();
  await expect(page.getByTestId('note-body')).toHaveValue(BODY);

  const html = readFileSync(await download(page, 'html'), 'utf8');
  expect(html).toMatch(/<figure class="function-plot"><svg [^>]*>.*正弦/s);
  expect(html).toMatch(/<figure class="mermaid"><svg[^>]*>.*就绪/s);
  expect(html).toContain('<math');

  const pdf = await download(page, 'pdf');
  const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' });
  expect(text.indexOf('离线导出')).toBeLessThan(text.indexOf('先来先服务 (FCFS) runs in'));
  expect(text).toContain('平均等待');
  expect(execFileSync('pdffonts', [pdf], { encoding: 'utf8' })).toMatch(/[A-Z]{6}\+NotoSansSC-Regular/);

  const { value: word } = await mammoth.convertToHtml({ path: await download(page, 'docx') });
  expect(word).toContain('<h1>离线导出</h1>');
  expect(word).toContain('<th><p><strong>算法</strong></p></th>');
  expect(word.match(/<img /g)?.length).toBe(2);
  expect(requestLog.foreign()).toEqual([]);
});
