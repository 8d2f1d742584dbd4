import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../core/markdown/document-ast';
import { testExportContext } from '../test-context';
import { createHarfBuzzSubsetter } from './font-subset';
import { createPdfExporter } from './pdf-exporter';
import { FONT_PATH, MONO_FONT_PATH, WASM_PATH, fileLoader, outlineTitles, poppler } from './testing/poppler';

const exporter = createPdfExporter(
  fileLoader(FONT_PATH),
  async () => createHarfBuzzSubsetter(async () => readFileSync(WASM_PATH)),
  fileLoader(MONO_FONT_PATH),
);

const TITLE = '操作系统第三讲 总结';

async function exportPdf(
  markdown: string,
  title: string,
  options: Parameters<typeof testExportContext>[0] = {},
) {
  const { data } = await exporter.export(documentFromMarkdown(markdown, title), testExportContext(options));
  return data;
}

const count = (text: string, phrase: string) => text.split(phrase).length - 1;

describe('pdfExporter title', () => {
  it('prints a title the note already opens with once, keeping its bookmark and the document title', async () => {
    const markdown = `# ${TITLE}\n\n进程调度 decides which process runs next.\n\n## 调度算法\n\nFCFS first.\n`;
    const data = await exportPdf(markdown, TITLE, { include_metadata: true });
    expect(count(poppler('pdftotext', data), TITLE)).toBe(1);
    expect(outlineTitles(data)).toEqual([TITLE, '调度算法']);
    expect(poppler('pdfinfo', data)).toMatch(new RegExp(`^Title:\\s+${TITLE}$`, 'm'));
  });

  it("still prints a title that differs from the note's first heading, above it", async () => {
    const text = poppler('pdftotext', await exportPdf(`# 第一节\n\n正文。\n`, TITLE));
    expect(count(text, TITLE)).toBe(1);
    expect(text.indexOf(TITLE)).toBeLessThan(text.indexOf('第一节'));
  });
});
