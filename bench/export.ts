// Export: a 200-block note (headings, paragraphs in English and Chinese, lists,
// tables, code, formulas, plots) per format, each beside a baseline measured in
// the same run: HTML against markdown-it rendering the same Markdown alone; PDF
// against Chromium's page.pdf() of the exported HTML (size too); DOCX against
// the docx library packing the same text as plain paragraphs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';
import { Document, Packer, Paragraph } from 'docx';
import type { ExportDocument } from '../src/contracts/exports';
import { documentFromMarkdown } from '../src/core/markdown/document-ast';
import { createMarkdownParser } from '../src/core/markdown/syntax';
import { docxExporter } from '../src/export/docx/docx-exporter';
import { htmlExporter } from '../src/export/html/html-exporter';
import { createHarfBuzzSubsetter } from '../src/export/pdf/font-subset';
import { createPdfExporter } from '../src/export/pdf/pdf-exporter';
import { testExportContext } from '../src/export/test-context';
// @ts-expect-error plain ESM helper shared with the Playwright config
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/system-chromium.mjs';
import { median, type BenchResult } from './harness';

function note(blocks: number): string {
  const parts: string[] = [];
  for (let i = 0; parts.length < blocks; i++) {
    parts.push(`## 第 ${i} 节 Section ${i}`);
    parts.push(
      `进程调度决定下一个运行的进程。The scheduler picks the next process in O(log n) with a heap, see $T(n) = O(n \\log n)$ (note ${i}).`,
    );
    parts.push(`- first come, first served\n- 最短作业优先\n- round robin`);
    parts.push(`| 算法 | 平均等待 |\n|:--|--:|\n| FCFS | ${i} |\n| SJF | ${i / 2} |`);
    if (i % 5 === 0) parts.push('```function-plot\ny = sin(x) | label: sine\n```');
    else parts.push(`\`\`\`ts\nconst quantum = ${i};\n\`\`\``);
  }
  return parts.slice(0, blocks).join('\n\n') + '\n';
}

function heapMb(): number {
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function timed(
  fn: () => Promise<number>,
  runs: number,
): Promise<{ ms: number; bytes: number; heap: number }> {
  let bytes = 0;
  let heap = 0;
  const ms = await median(async () => {
    const before = heapMb();
    bytes = await fn();
    heap = Math.max(heap, heapMb() - before);
  }, runs);
  return { ms, bytes, heap };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export async function exportBenchmarks(): Promise<BenchResult[]> {
  const markdown = note(200);
  const document: ExportDocument = documentFromMarkdown(markdown, '操作系统复习');
  const context = testExportContext();
  const markdownIt = createMarkdownParser();
  const results: BenchResult[] = [];

  const html = await timed(async () => (await htmlExporter.export(document, context)).data.byteLength, 5);
  const htmlBase = await timed(async () => markdownIt.render(markdown).length, 5);
  results.push({
    name: 'export HTML, 200 blocks (AST, KaTeX MathML, plot SVG, sanitize)',
    baseline: 'markdown-it render alone',
    ms: html.ms,
    baselineMs: htmlBase.ms,
    ratio: html.ms / htmlBase.ms,
    note: `${kb(html.bytes)}, heap +${html.heap.toFixed(0)} MB`,
  });

  const fontPath = createRequire(import.meta.url).resolve(
    '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  );
  const font = new Uint8Array(readFileSync(fontPath));
  const wasm = readFileSync(createRequire(import.meta.url).resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'));
  const pdfExporter = createPdfExporter(
    async () => async () => font,
    async () => createHarfBuzzSubsetter(async () => wasm),
  );
  const pdf = await timed(async () => (await pdfExporter.export(document, context)).data.byteLength, 3);
  const exportedHtml = new TextDecoder().decode((await htmlExporter.export(document, context)).data);
  const executablePath: string | undefined = findSystemChromium();
  const browser = await chromium.launch({ ...(executablePath && { executablePath }), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const chrome = await timed(async () => {
      await page.setContent(exportedHtml);
      return (await page.pdf({ format: 'A4' })).byteLength;
    }, 3);
    results.push({
      name: 'export PDF, 200 blocks (pdf-lib, CJK subset)',
      baseline: 'Chromium page.pdf() of the exported HTML',
      ms: pdf.ms,
      baselineMs: chrome.ms,
      ratio: pdf.ms / chrome.ms,
      note: `${kb(pdf.bytes)} vs ${kb(chrome.bytes)}, heap +${pdf.heap.toFixed(0)} MB`,
    });
  } finally {
    await browser.close();
  }

  const docx = await timed(async () => (await docxExporter.export(document, context)).data.byteLength, 3);
  const paragraphs = markdown.split('\n\n');
  const docxBase = await timed(
    async () =>
      (
        await Packer.pack(
          new Document({ sections: [{ children: paragraphs.map((text) => new Paragraph(text)) }] }),
          'uint8array',
        )
      ).byteLength,
    3,
  );
  results.push({
    name: 'export DOCX, 200 blocks',
    baseline: 'docx packing the same text as plain paragraphs',
    ms: docx.ms,
    baselineMs: docxBase.ms,
    ratio: docx.ms / docxBase.ms,
    note: `${kb(docx.bytes)}, heap +${docx.heap.toFixed(0)} MB`,
  });
  return results;
}
