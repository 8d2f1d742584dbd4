import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../core/markdown/document-ast';
import { testExportContext } from '../test-context';
import { createPdfExporter } from './pdf-exporter';

const fontPath = createRequire(import.meta.url).resolve(
  '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
);
let fontReads = 0;
const exporter = createPdfExporter(async () => async () => {
  fontReads += 1;
  return new Uint8Array(readFileSync(fontPath));
});

const NOTE = `# 操作系统复习

进程调度 decides which process runs next. 先来先服务 is the simplest policy.

## Policies

- FCFS: first come, first served
- SJF：最短作业优先

| 算法 | 平均等待 |
|:--|--:|
| FCFS | 10 |

\`\`\`function-plot
y = sin(x) | label: sine
\`\`\`

Read more at [the docs](https://example.com/docs).
`;

function poppler(tool: 'pdftotext' | 'pdffonts' | 'pdfinfo', data: Uint8Array, ...args: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'notes-pdf-'));
  const file = join(dir, 'note.pdf');
  writeFileSync(file, data);
  return execFileSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
}

async function exportPdf(markdown: string, options: Parameters<typeof testExportContext>[0] = {}) {
  return exporter.export(documentFromMarkdown(markdown, '操作系统复习'), testExportContext(options));
}

describe('pdfExporter', () => {
  it('sets Chinese and English as selectable text, in order, in an embedded subset of the CJK font', async () => {
    const { data, warnings } = await exportPdf(NOTE);
    expect(warnings).toEqual([]);
    const text = poppler('pdftotext', data);
    const order = [
      '操作系统复习',
      '进程调度 decides which process runs next.',
      '先来先服务',
      'Policies',
      'FCFS: first come, first served',
      'SJF：最短作业优先',
      '算法',
      'sine',
      'Read more at the docs',
    ];
    let at = -1;
    for (const expected of order) {
      const found = text.indexOf(expected, at + 1);
      expect(found, `${expected} after position ${at}`).toBeGreaterThan(at);
      at = found;
    }
    const fonts = poppler('pdffonts', data);
    // A subset font's name carries a six-letter tag: ABCDEF+NotoSansSC-Regular; "emb" and "sub" are yes.
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansSC-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
    // A subset: far smaller than the 10 MB font.
    expect(data.byteLength).toBeLessThan(200_000);
  });

  it('follows the page size and numbers the pages', async () => {
    const long = Array.from(
      { length: 120 },
      (_, index) => `段落 ${index}：${'进程调度与内存管理。'.repeat(6)}`,
    ).join('\n\n');
    const letter = await exportPdf(long, { page_size: 'Letter' });
    const info = poppler('pdfinfo', letter.data);
    expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
    expect(pages).toBeGreaterThan(3);
    expect(poppler('pdftotext', letter.data)).toMatch(new RegExp(`\\b${pages}\\s*/\\s*${pages}\\b`));
    const a4 = poppler('pdfinfo', (await exportPdf('x', { page_size: 'A4' })).data);
    expect(a4).toMatch(/Page size:\s+595.28 x 841.89 pts \(A4\)/);
  });

  it('warns about what it cannot set exactly and keeps it as source', async () => {
    const { data, warnings } = await exportPdf(
      'Energy $E=mc^2$.\n\n```mermaid\ngraph TD; A-->B\n```\n\n<div>raw</div>\n',
    );
    expect(warnings).toEqual([
      'PDF: formulas are set as their TeX source.',
      'PDF: Mermaid diagrams are shown as their source.',
      'PDF: raw HTML is left out.',
    ]);
    const text = poppler('pdftotext', data);
    expect(text).toContain('E=mc^2');
    expect(text).toContain('graph TD; A-->B');
  });

  it('loads the font once for many exports', async () => {
    const before = fontReads;
    await exportPdf('a');
    await exportPdf('b');
    expect(fontReads - before).toBeLessThanOrEqual(2);
  });
});
