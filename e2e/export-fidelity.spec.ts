import { execFileSync } from 'node:child_process';
import { zipSync } from 'fflate';
import { createNote, expect, openApp, test } from './fixtures';
import { docxParts, exportNote, pdfText } from './harness/chain-steps';

const HEADING_COLOUR = '#b0306a';

/** A light theme whose only change is the colour of headings. */
function headingThemePackage(): Buffer {
  const text = new TextEncoder();
  const files = {
    'theme.yaml': text.encode(
      [
        'theme_id: plum-headings',
        'name: Plum headings',
        'version: 1.0.0',
        'author: E2E',
        'description: Plum-coloured headings',
        'min_app_version: 0.1.0',
        'is_dark: false',
        'css_entry: css/theme.css',
      ].join('\n'),
    ),
    'css/theme.css': text.encode(`:root { --color-heading: ${HEADING_COLOUR}; }\n`),
  };
  return Buffer.from(zipSync({ 'plum-headings': files }));
}

/** The colour poppler reads for the text run holding `needle` (`pdftohtml -xml`: each font spec has one). */
function textColour(path: string, needle: string): string | undefined {
  const xml = execFileSync('pdftohtml', ['-xml', '-i', '-stdout', '-q', path], { encoding: 'utf8' });
  const colours = new Map(
    Array.from(xml.matchAll(/<fontspec id="(\d+)"[^>]*color="(#[0-9a-f]{6})"/gi), (match) => [
      match[1],
      match[2]?.toLowerCase(),
    ]),
  );
  const run = Array.from(xml.matchAll(/<text [^>]*font="(\d+)"[^>]*>(.*?)<\/text>/g)).find((match) =>
    match[2]?.replace(/<[^>]+>/g, '').includes(needle),
  );
  return run && colours.get(run[1] ?? '');
}

test("a PDF draws headings in the theme's heading colour, body text in the text colour", async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  const themes = page.getByTestId('theme-settings');
  await themes.getByTestId('theme-import-zip').setInputFiles({
    name: 'plum-headings.zip',
    mimeType: 'application/zip',
    buffer: headingThemePackage(),
  });
  await themes.getByTestId('theme-inspection').getByTestId('theme-install').click();
  const row = themes.locator('[data-testid="theme-row"][data-theme-id="plum-headings"]');
  await row.getByTestId('theme-enable').click();
  await expect(row).toHaveAttribute('data-enabled', 'true');
  await page.keyboard.press('Escape');

  await createNote(page, '卷积神经网络', '# Convolution layers\n\n普通文字 plain text.\n');
  const path = (await (await exportNote(page, 'pdf')).path())!;
  expect(textColour(path, 'Convolution layers')).toBe(HEADING_COLOUR);
  expect(textColour(path, '普通文字')).toMatch(/^#[0-9a-f]{6}$/);
  expect(textColour(path, '普通文字')).not.toBe(HEADING_COLOUR);
  expect(requestLog.foreign()).toEqual([]);
});

test('bold Chinese in a PDF copies and searches as written, each character once', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '卷积神经网络', '**卷积**层提取局部特征，**池化 pooling** 层降采样。\n');
  const path = (await (await exportNote(page, 'pdf')).path())!;
  const text = pdfText(path);
  expect(text).toContain('卷积层提取局部特征，池化 pooling 层降采样。');
  expect(text).not.toMatch(/卷卷|积积|池池/);
  expect(requestLog.foreign()).toEqual([]);
});

test('a Word file shows double-struck, script and fraktur letters as such', async ({ page, requestLog }) => {
  await openApp(page);
  await createNote(
    page,
    'Lie algebras',
    'Let $\\mathfrak{g}$ act on $\\mathbb{R}^n$ and $\\mathcal{F}$ be a sheaf; $\\mathbf{x} \\in \\mathbb{Z}$.\n',
  );
  const file = await exportNote(page, 'docx');
  const { documentXml } = docxParts((await file.path())!);
  const runs = Array.from(documentXml.matchAll(/<m:t\b[^>]*>([^<]*)<\/m:t>/g), (match) => match[1]);
  expect(runs).toEqual(expect.arrayContaining(['𝔤', 'ℝ', 'ℱ', 'ℤ']));
  expect(runs).not.toContain('R');
  // Bold stays Office Math's bold run style.
  expect(documentXml).toMatch(/<m:sty m:val="b"\/><\/m:rPr>(?:<w:rPr>.*?<\/w:rPr>)?<m:t[^>]*>x<\/m:t>/);
  expect(requestLog.foreign()).toEqual([]);
});
