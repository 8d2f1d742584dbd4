// Peak memory of one export, measured in a fresh process: `tsx bench/export-peak.ts <case>`
// prints {"peakMb": n}, the highest resident set size the process reached while
// exporting, above what it held once everything was loaded and the note parsed.
// A thread samples the RSS every millisecond, since the export blocks the main
// thread; a process per case, so no earlier case's freed memory is counted.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Document, Packer, Paragraph } from 'docx';
import { documentFromMarkdown } from '../src/core/markdown/document-ast';
import { createMarkdownParser } from '../src/core/markdown/syntax';
import { docxExporter } from '../src/export/docx/docx-exporter';
import { htmlExporter } from '../src/export/html/html-exporter';
import { createHarfBuzzSubsetter } from '../src/export/pdf/font-subset';
import { createPdfExporter } from '../src/export/pdf/pdf-exporter';
import { testExportContext } from '../src/export/test-context';

export const PEAK_CASES = ['html', 'html-baseline', 'pdf', 'docx', 'docx-baseline'] as const;
export type PeakCase = (typeof PEAK_CASES)[number];

/** The benchmark note: `blocks` blocks of headings, mixed-language text, lists, tables, code, formulas, plots. */
export function benchNote(blocks: number): string {
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

/** The PDF exporter with the bundled CJK font and HarfBuzz read from node_modules. */
export function benchPdfExporter(): ReturnType<typeof createPdfExporter> {
  const require = createRequire(import.meta.url);
  const font = new Uint8Array(
    readFileSync(require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf')),
  );
  const wasm = readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'));
  return createPdfExporter(
    async () => async () => font,
    async () => createHarfBuzzSubsetter(async () => wasm),
  );
}

async function measure(which: PeakCase): Promise<number> {
  const markdown = benchNote(200);
  const document = documentFromMarkdown(markdown, '操作系统复习');
  const context = testExportContext();
  const pdfExporter = benchPdfExporter();
  const markdownIt = createMarkdownParser();
  const paragraphs = markdown.split('\n\n');
  const run: Record<PeakCase, () => Promise<unknown>> = {
    html: () => htmlExporter.export(document, context),
    'html-baseline': async () => markdownIt.render(markdown),
    pdf: () => pdfExporter.export(document, context),
    docx: () => docxExporter.export(document, context),
    'docx-baseline': () =>
      Packer.pack(
        new Document({ sections: [{ children: paragraphs.map((text) => new Paragraph(text)) }] }),
        'uint8array',
      ),
  };
  const control = new Int32Array(new SharedArrayBuffer(4));
  const peak = new BigInt64Array(new SharedArrayBuffer(8));
  const sampler = new Worker(SAMPLER, {
    eval: true,
    workerData: { control: control.buffer, peak: peak.buffer },
  });
  await new Promise((resolve) => sampler.once('message', resolve));
  const settled = process.memoryUsage.rss();
  Atomics.store(peak, 0, BigInt(settled));
  await run[which]();
  Atomics.store(control, 0, 1);
  await new Promise((resolve) => sampler.once('exit', resolve));
  return Number(Atomics.load(peak, 0) - BigInt(settled)) / 1024 / 1024;
}

const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const control = new Int32Array(workerData.control);
const peak = new BigInt64Array(workerData.peak);
parentPort.postMessage('ready');
while (Atomics.load(control, 0) === 0) {
  const rss = BigInt(process.memoryUsage.rss());
  if (rss > Atomics.load(peak, 0)) Atomics.store(peak, 0, rss);
  Atomics.wait(control, 0, 0, 1);
}
`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const which = process.argv[2] as PeakCase;
  if (!PEAK_CASES.includes(which)) throw new Error(`case must be one of ${PEAK_CASES.join(', ')}`);
  console.log(JSON.stringify({ peakMb: await measure(which) }));
}
