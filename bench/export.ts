// Export: a 200-block note (headings, paragraphs in English and Chinese, lists,
// tables, code, formulas, plots) per format, each beside a baseline measured in
// the same run: HTML against markdown-it rendering the same Markdown alone; PDF
// against Chromium's page.pdf() of the exported HTML (size and pages too, and
// again for a note of 20+ pages); DOCX against
// the docx library packing the same text as plain paragraphs. Peak memory is each
// export's highest RSS in a fresh process (bench/export-peak.ts), beside the
// baseline's: in Node for HTML and DOCX, Chromium's processes for PDF.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument } from 'pdf-lib';
import type { ExportDocument } from '../src/contracts/exports';
import { documentFromMarkdown } from '../src/core/markdown/document-ast';
import { createMarkdownParser } from '../src/core/markdown/syntax';
import { docxExporter } from '../src/export/docx/docx-exporter';
import { htmlExporter } from '../src/export/html/html-exporter';
import { testExportContext } from '../src/export/test-context';
import { launchChromium } from './chromium';
import { benchNote, benchPdfExporter, type PeakCase } from './export-peak';
import { childTreePeakMb } from './process-tree-rss';
import { median, type BenchResult } from './harness';

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

/** Peak RSS of one export above the settled process, in MB, from a fresh process (see export-peak.ts). */
async function peakMb(which: PeakCase): Promise<number> {
  const script = fileURLToPath(new URL('./export-peak.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, which]);
  return (JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { peakMb: number }).peakMb;
}

const mb = (value: number) => `${value.toFixed(1)} MB`;

export async function exportBenchmarks(): Promise<BenchResult[]> {
  const markdown = benchNote(200);
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
    note: `${kb(html.bytes)}, heap +${html.heap.toFixed(0)} MB, peak RSS +${mb(await peakMb('html'))} (markdown-it +${mb(await peakMb('html-baseline'))})`,
  });

  const pdfExporter = benchPdfExporter();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    /** Our PDF and Chromium's of the same note: time, size and pages. */
    const pdfPair = async (exported: ExportDocument, runs: number) => {
      let ours: Uint8Array = new Uint8Array();
      let chromes: Uint8Array = new Uint8Array();
      const pdf = await timed(async () => {
        ours = (await pdfExporter.export(exported, context)).data;
        return ours.byteLength;
      }, runs);
      const exportedHtml = new TextDecoder().decode((await htmlExporter.export(exported, context)).data);
      const chrome = await timed(async () => {
        await page.setContent(exportedHtml);
        chromes = await page.pdf({ format: 'A4' });
        return chromes.byteLength;
      }, runs);
      const pages = async (data: Uint8Array) => (await PDFDocument.load(data)).getPageCount();
      return {
        pdf,
        chrome,
        sizes: `${kb(pdf.bytes)} (${await pages(ours)} pages) vs ${kb(chrome.bytes)} (${await pages(chromes)} pages)`,
      };
    };
    const { pdf, chrome, sizes } = await pdfPair(document, 3);
    // Chromium's peak: its processes' summed RSS during one print of the same HTML, above
    // what they held with the page loaded.
    await page.setContent(new TextDecoder().decode((await htmlExporter.export(document, context)).data));
    const chromePeak = await childTreePeakMb(() => page.pdf({ format: 'A4' }));
    results.push({
      name: 'export PDF, 200 blocks (pdf-lib, CJK subset)',
      baseline: 'Chromium page.pdf() of the exported HTML',
      ms: pdf.ms,
      baselineMs: chrome.ms,
      ratio: pdf.ms / chrome.ms,
      note: `${sizes}, heap +${pdf.heap.toFixed(0)} MB, peak RSS +${mb(await peakMb('pdf'))} (Chromium's processes +${mb(chromePeak)})`,
    });
    // The size claim is about a note of twenty pages or more: the same mix, longer.
    const long = await pdfPair(documentFromMarkdown(benchNote(260), '操作系统复习'), 1);
    results.push({
      name: 'export PDF, 260 blocks (20+ pages): file size',
      baseline: 'Chromium page.pdf() of the exported HTML',
      ms: long.pdf.ms,
      baselineMs: long.chrome.ms,
      ratio: long.pdf.ms / long.chrome.ms,
      note: long.sizes,
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
    note: `${kb(docx.bytes)}, heap +${docx.heap.toFixed(0)} MB, peak RSS +${mb(await peakMb('docx'))} (plain docx +${mb(await peakMb('docx-baseline'))})`,
  });
  return results;
}
