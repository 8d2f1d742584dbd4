import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from '@playwright/test';
import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { createNote, expect, openApp, previewNewNote, test } from './fixtures';

const NOTE_BODY = `# 进程调度

先来先服务 (FCFS) runs in $O(n)$ time; the average wait is

$$
\\bar{W} = \\frac{1}{n}\\sum_{i=1}^{n} W_i
$$

| 算法 | 平均等待 |
|:--|--:|
| FCFS | 10 |
| SJF | 6 |

\`\`\`function-plot
y = sin(x) | label: 正弦
domain: -6.28, 6.28
\`\`\`

\`\`\`mermaid
graph TD; A[就绪] --> B[运行]
\`\`\`
`;

/**
 * Decodes PNGs with the page's own decoder and counts the pixels that are drawn:
 * opaque (in the PNG's alpha, or in `mask`, a PDF image's soft mask) and not white.
 */
async function inkOf(
  page: Page,
  png: Uint8Array,
  mask?: Uint8Array,
): Promise<{ width: number; ink: number }> {
  return page.evaluate(
    async ([png, mask]) => {
      const pixels = async (base64: string) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        return { width: bitmap.width, data: context.getImageData(0, 0, bitmap.width, bitmap.height).data };
      };
      const image = await pixels(png);
      const alpha = mask ? (await pixels(mask)).data : undefined;
      let ink = 0;
      for (let at = 0; at < image.data.length; at += 4) {
        const opaque = (alpha ?? image.data)[alpha ? at : at + 3]! > 128;
        const light = image.data[at]! + image.data[at + 1]! + image.data[at + 2]! > 700;
        if (opaque && !light) ink += 1;
      }
      return { width: image.width, ink };
    },
    [Buffer.from(png).toString('base64'), mask && Buffer.from(mask).toString('base64')] as const,
  );
}

async function startExport(page: Page, format: 'html' | 'pdf' | 'docx'): Promise<void> {
  await page.getByTestId('export-note').click();
  await page.getByTestId(`export-format-${format}`).click();
}

test('a note with a formula, a table, a plot, a diagram and Chinese text exports to one offline HTML file', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '操作系统/复习', NOTE_BODY);
  const download = page.waitForEvent('download');
  await startExport(page, 'html');
  const file = await download;
  expect(file.suggestedFilename()).toBe('操作系统 复习.html');
  const html = await readFile(await file.path(), 'utf8');
  expect(html).toContain('<h1>进程调度</h1>');
  expect(html).toContain('<annotation encoding="application/x-tex">O(n)</annotation>');
  expect(html).toMatch(/<div class="math-block">(?:<span[^>]*>)*<math[^>]*display="block"/);
  expect(html).toContain('<th style="text-align:left">算法</th>');
  expect(html).toMatch(
    /<figure class="function-plot"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*正弦/s,
  );
  expect(html).toMatch(/<figure class="mermaid"><svg[^>]*>.*就绪/s);
  expect(html).not.toMatch(/<script|javascript:|<foreignObject/i);
  await expect(page.getByText('Exported 操作系统 复习.html')).toBeVisible();

  // The file stands on its own: opened with the network cut off, it shows everything.
  const viewer = await page.context().newPage();
  await viewer.setContent(html);
  await expect(viewer.locator('math').first()).toBeVisible();
  await expect(viewer.locator('figure.function-plot svg path').first()).toBeAttached();
  await viewer.close();
  expect(requestLog.foreign()).toEqual([]);
});

test('an export waiting on a diagram can be cancelled', async ({ page, requestLog }) => {
  // Mermaid's chunk is held back, so the export stays on its diagram until cancelled.
  const held: Route[] = [];
  await page.route(/\/assets\/mermaid\.core-[^/]*\.js$/, (route) => {
    held.push(route);
  });
  await openApp(page);
  await createNote(page, 'Diagram', '```mermaid\ngraph TD; A-->B\n```\n');
  await startExport(page, 'html');
  await expect(page.getByTestId('export-status')).toBeVisible();
  const cancel = page.getByTestId('export-cancel');
  await expect(cancel).toBeEnabled();
  await cancel.click();
  await expect(page.getByText('Export cancelled')).toBeVisible();
  await expect(page.getByTestId('export-status')).toHaveCount(0);
  await expect(page.getByTestId('export-note')).toBeVisible();
  for (const route of held) await route.abort().catch(() => undefined);
  expect(requestLog.foreign()).toEqual([]);
});

test('the same note exports to a PDF with selectable Chinese and English text', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '操作系统复习', NOTE_BODY);
  const download = page.waitForEvent('download');
  await startExport(page, 'pdf');
  const file = await download;
  expect(file.suggestedFilename()).toBe('操作系统复习.pdf');
  const text = execFileSync('pdftotext', [await file.path(), '-'], { encoding: 'utf8' });
  expect(text).toContain('进程调度');
  expect(text).toContain('先来先服务 (FCFS) runs in');
  expect(text).toContain('平均等待');
  // The formulas are typeset (vector paths), not their TeX source in a box.
  expect(text).not.toContain('Formula (TeX)');
  expect(text).not.toContain('\\frac');
  // …with their readable text laid invisibly over them (export-pdf-math-text.spec.ts).
  expect(text).toContain('runs in O(n) time');
  expect(execFileSync('pdffonts', [await file.path()], { encoding: 'utf8' })).toMatch(
    /[A-Z]{6}\+NotoSansSC-Regular/,
  );
  // The plot is drawn as vector paths with its label as text; the diagram is the page's picture.
  expect(text).toContain('正弦');
  expect(text).not.toContain('graph TD');
  const list = execFileSync('pdfimages', ['-list', await file.path()], { encoding: 'utf8' });
  expect(list.split('\n').filter((line) => /^\s*\d+\s+\d+\s+image\s/.test(line))).toHaveLength(1);
  const dir = mkdtempSync(join(tmpdir(), 'export-e2e-'));
  execFileSync('pdfimages', ['-png', await file.path(), join(dir, 'img')]);
  const [image, mask] = readdirSync(dir)
    .sort()
    .map((name) => new Uint8Array(readFileSync(join(dir, name))));
  const diagram = await inkOf(page, image!, mask);
  expect(diagram.width).toBeGreaterThan(100);
  expect(diagram.ink).toBeGreaterThan(500);
  expect(requestLog.foreign()).toEqual([]);
});

const REVIEW_BODY = `## 进程调度 Process scheduling

Call \`fcfs(jobs)\` for the average wait.

\`\`\`python
def fcfs(jobs):
    # 计算平均等待时间
    t = 0
    return sum(t := t + j for j in jobs) / len(jobs)
\`\`\`

## 表格 Table

| 名称 | 时间 |
|:--|--:|
| FCFS | 10 |
`;

test('a PDF keeps code indentation in a monospaced font and Chinese bookmarks', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '操作系统/复习 OS review', REVIEW_BODY);
  const download = page.waitForEvent('download');
  await startExport(page, 'pdf');
  const path = await (await download).path();
  const lines = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).split('\n');
  const indent = (start: string) => {
    const line = lines.find((item) => item.trimStart().startsWith(start)) ?? '';
    return line.length - line.trimStart().length;
  };
  expect(indent('# 计算平均等待时间') - indent('def fcfs(jobs):')).toBe(4);
  expect(indent('return sum(') - indent('def fcfs(jobs):')).toBe(4);
  // The monospaced font is the app's own asset, loaded in the worker and embedded as a subset.
  expect(execFileSync('pdffonts', [path], { encoding: 'utf8' })).toMatch(
    /[A-Z]{6}\+KaTeX_Typewriter-Regular/,
  );
  // The bookmarks read back in Chinese, not as the low bytes of each character.
  const xml = execFileSync('pdftohtml', ['-xml', '-i', '-stdout', '-q', path], { encoding: 'utf8' });
  const outline = Array.from(xml.matchAll(/<item[^>]*>([^<]*)<\/item>/g), (match) => match[1]);
  expect(outline).toEqual(['进程调度 Process scheduling', '表格 Table']);
  expect(requestLog.foreign()).toEqual([]);
});

test('$$…$$ written inside a line is a centred display formula in the PDF, as in the preview', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '公式', '公式如下 $$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$ 之后\n');
  // The preview sets it as a display block on a line of its own.
  await expect(page.getByTestId('preview').locator('.katex-display')).toHaveCount(1);
  const download = page.waitForEvent('download');
  await startExport(page, 'pdf');
  const path = await (await download).path();
  const bbox = execFileSync('pdftotext', ['-bbox', path, '-'], { encoding: 'utf8' });
  const word = (text: string) => {
    const match = new RegExp(
      `<word xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${text}</word>`,
    ).exec(bbox);
    if (!match) throw new Error(`no word ${text} in ${bbox}`);
    return { x0: Number(match[1]), y0: Number(match[2]), y1: Number(match[4]) };
  };
  const before = word('公式如下');
  const after = word('之后');
  // Not one small line: the text after starts below a displayed formula, at the left margin again.
  expect(after.y0 - before.y1).toBeGreaterThan(20);
  expect(after.x0).toBeCloseTo(before.x0, 0);
  expect(requestLog.foreign()).toEqual([]);
});

test('the same note exports to a Word file with headings, table and images', async ({ page, requestLog }) => {
  await openApp(page);
  await createNote(page, '操作系统复习', NOTE_BODY);
  const download = page.waitForEvent('download');
  await startExport(page, 'docx');
  const file = await download;
  expect(file.suggestedFilename()).toBe('操作系统复习.docx');
  const { value: html } = await mammoth.convertToHtml({ path: await file.path() });
  expect(html).toContain('<h1>进程调度</h1>');
  expect(html).toContain('<th><p><strong>算法</strong></p></th>');
  expect(html).not.toContain('Formula (TeX)');
  // Both formulas are Word equations: the inline one and the displayed sum.
  const documentXml = new TextDecoder().decode(
    unzipSync(await readFile(await file.path()))['word/document.xml'],
  );
  expect(documentXml.match(/<m:oMath /g)).toHaveLength(2);
  expect(documentXml).toMatch(/<m:oMathPara><m:oMath [^>]*>[\s\S]*<m:nary>/);
  // The plot and the diagram.
  expect(html.match(/<img /g)?.length).toBe(2);
  // Each is an SVG with the page's PNG beside it, and the PNGs are drawn, not blank.
  const media = Object.entries(unzipSync(await readFile(await file.path()))).filter(([name]) =>
    name.startsWith('word/media/'),
  );
  expect(media.filter(([name]) => name.endsWith('.svg'))).toHaveLength(2);
  const pngs = media.filter(([name]) => name.endsWith('.png'));
  expect(pngs).toHaveLength(2);
  for (const [name, data] of pngs) {
    expect(data.byteLength, name).toBeGreaterThan(2000);
    const drawn = await inkOf(page, data);
    expect(drawn.width, name).toBeGreaterThan(100);
    expect(drawn.ink, name).toBeGreaterThan(500);
  }
  expect(requestLog.foreign()).toEqual([]);
});

test('a function plot in the preview is an interactive chart; a broken one stays source with its message', async ({
  page,
  requestLog,
}) => {
  const preview = await previewNewNote(
    page,
    'Plots',
    '```function-plot\ny = x^2 | label: square\ndomain: -3, 3\n```\n\n```function-plot\ny = globalThis\n```\n',
  );
  const chart = preview.locator('.function-plot-chart svg').first();
  await expect(chart).toBeVisible();
  await expect(preview.locator('.function-plot-chart path.line').first()).toBeAttached();
  const ticks = () => preview.locator('.function-plot-chart .x.axis .tick text').allTextContents();
  const before = await ticks();
  // Zooming with the wheel changes the visible x range.
  await chart.hover();
  await page.mouse.wheel(0, -400);
  await expect.poll(ticks).not.toEqual(before);
  const error = preview.locator('.plot-error');
  await expect(error).toHaveAttribute('data-error-code', 'FUNCTION_PLOT_EXPRESSION_UNSAFE');
  await expect(error).toContainText('line 1, column 5');
  await expect(preview.locator('.function-plot-block pre').nth(1)).toHaveText('y = globalThis');
  expect(requestLog.foreign()).toEqual([]);
});

test('the export status counts the diagrams drawn while a diagram is still being drawn', async ({
  page,
  requestLog,
}) => {
  // Mermaid's chunk is held back: the plot before it is drawn, the diagram waits.
  const held: Route[] = [];
  let release = false;
  await page.route(/\/assets\/mermaid\.core-[^/]*\.js$/, (route) =>
    release ? route.continue() : void held.push(route),
  );
  await openApp(page);
  await createNote(
    page,
    'Stages',
    'Intro.\n\n```function-plot\ny = x\n```\n\n```mermaid\ngraph TD; A-->B\n```\n\nEnd.\n',
  );
  const download = page.waitForEvent('download');
  await startExport(page, 'html');
  const status = page.getByTestId('export-status');
  await expect(status).toHaveText('Exporting HTML: drawing 1 of 2…');
  await expect(status).toHaveAttribute('data-phase', 'rendering');
  await expect(status).toHaveAttribute('data-percent', '50');
  await expect.poll(() => held.length).toBeGreaterThan(0);
  release = true;
  for (const route of held) await route.continue();
  expect((await download).suggestedFilename()).toBe('Stages.html');
  await expect(status).toHaveCount(0);
  expect(requestLog.foreign()).toEqual([]);
});

/**
 * The core worker (where the export service keeps time) gets a clock the test can
 * move: Playwright's page.clock does not reach workers, so the worker's script is
 * served with a shim that adds an offset to Date.now, set over a BroadcastChannel
 * and acknowledged before the test goes on.
 */
async function installWorkerClock(page: Page): Promise<(offsetMs: number) => Promise<void>> {
  const shim = `{const c=new BroadcastChannel('e2e-worker-clock');let o=0;const n=Date.now.bind(Date);Date.now=()=>n()+o;c.onmessage=(e)=>{if(typeof e.data==='number'){o=e.data;c.postMessage('ack');}};}\n`;
  await page.context().route(/\/assets\/core\.worker-[^/]*\.js$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: shim + (await response.text()) });
  });
  return (offsetMs) =>
    page.evaluate(
      (offset) =>
        new Promise<void>((resolve) => {
          const channel = new BroadcastChannel('e2e-worker-clock');
          channel.onmessage = (event) => {
            if (event.data !== 'ack') return;
            channel.close();
            resolve();
          };
          channel.postMessage(offset);
        }),
      offsetMs,
    );
}

test('a finished export downloads again from the menu until it expires, then says it has expired', async ({
  page,
  requestLog,
}) => {
  const advanceWorkerClock = await installWorkerClock(page);
  await openApp(page);
  await createNote(page, 'Expiring', '# Expiring\n\nSome text.\n');
  const first = page.waitForEvent('download');
  await startExport(page, 'html');
  expect((await first).suggestedFilename()).toBe('Expiring.html');

  // Within its day the file downloads again from "Recent exports".
  await page.getByTestId('export-note').click();
  const again = page.waitForEvent('download');
  await page.getByTestId('export-recent-download').filter({ hasText: 'Expiring.html' }).click();
  expect((await again).suggestedFilename()).toBe('Expiring.html');

  // A day and a minute later it has expired: the code's message, and no file.
  await advanceWorkerClock(24 * 60 * 60 * 1000 + 60_000);
  let downloads = 0;
  page.on('download', () => (downloads += 1));
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-recent-download').filter({ hasText: 'Expiring.html' }).click();
  await expect(page.getByText('The exported file has expired. Export the note again.')).toBeVisible();
  expect(downloads).toBe(0);
  expect(requestLog.foreign()).toEqual([]);
});
