import { zipSync } from 'fflate';
import type { Frame, FrameLocator, Locator, Page } from '@playwright/test';
import { expect, openApp, createNote, test } from './fixtures';

/**
 * Syntax colours in a note's code blocks stay readable (WCAG AA, 4.5:1) on the
 * code background the theme draws: built-in light and dark, and a package
 * theme that gives code a dark background without choosing token colours.
 */

const encoder = new TextEncoder();
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const NOTE = [
  '```js',
  '// Greets someone by name.',
  'const answer = 42;',
  'class Greeter extends Base {',
  '  greet(name) {',
  '    return `Hello, ${name}` + /x+/g.source + true;',
  '  }',
  '}',
  "console.log(new Greeter().greet('you'), null);",
  '```',
  '',
  '```python',
  '@dataclass',
  'class Point(Base):',
  '    """A point."""',
  '    def norm(self, scale: float = 1.5) -> float:',
  '        # the length',
  '        return abs(self.x) * scale if self.x else None',
  '```',
  '',
].join('\n');

/** A light theme that draws code dark (One Dark's background) and names no token colours. */
const ONE_DARK_CODE_CSS = `:root {
  --color-bg: #fafafa;
  --color-text: #383a42;
  --color-code-bg: #282c34;
}
`;

function themePackage(themeId: string, css: string): Buffer {
  const files = {
    'theme.yaml': encoder.encode(
      [
        `theme_id: ${themeId}`,
        `name: ${themeId}`,
        'version: 1.0.0',
        'author: E2E',
        'min_app_version: 0.1.0',
        'is_dark: false',
        'css_entry: theme.css',
        'preview: preview.png',
      ].join('\n'),
    ),
    'theme.css': encoder.encode(css),
    'preview.png': new Uint8Array(PNG),
  };
  return Buffer.from(zipSync({ [themeId]: files }));
}

interface LowContrast {
  text: string;
  token: string;
  colour: string;
  background: string;
  ratio: number;
}

/**
 * Every coloured piece of code (each highlight.js span, and the code's own
 * text) whose colour is under 4.5:1 on what is drawn behind it, computed in the
 * page from the colours the browser applied.
 */
function lowContrastTokens(scope: Page | Frame, root: string): Promise<LowContrast[]> {
  return scope.evaluate((rootSelector) => {
    const rgb = (value: string): [number, number, number, number] => {
      const parts = value.match(/[\d.]+/g)!.map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const luminance = ([r, g, b]: number[]) => {
      const linear = (channel: number) => {
        const c = channel / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
    };
    const ratio = (a: number[], b: number[]) => {
      const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (high + 0.05) / (low + 0.05);
    };
    /** The nearest opaque background behind an element inside its code block. */
    const backgroundOf = (element: Element): string => {
      for (let at: Element | null = element; at; at = at.parentElement) {
        const background = getComputedStyle(at).backgroundColor;
        if (rgb(background)[3] > 0) return background;
        if (at.tagName === 'PRE') break;
      }
      return getComputedStyle(element.closest('pre')!).backgroundColor;
    };
    const found: LowContrast[] = [];
    for (const code of Array.from(document.querySelectorAll(`${rootSelector} pre code.hljs`))) {
      for (const element of [code, ...Array.from(code.querySelectorAll('span'))]) {
        const colour = getComputedStyle(element).color;
        const background = backgroundOf(element);
        const value = ratio(rgb(colour), rgb(background));
        if (value < 4.5)
          found.push({
            text: (element.textContent ?? '').slice(0, 30),
            token: element.className,
            colour,
            background,
            ratio: Math.round(value * 100) / 100,
          });
      }
    }
    return found;
  }, root);
}

/** The note's two code blocks, highlighted. */
async function highlighted(preview: Locator | FrameLocator): Promise<void> {
  await expect(preview.locator('pre code.hljs')).toHaveCount(2);
  await expect(preview.locator('code.language-js .hljs-keyword').first()).toBeVisible();
  await expect(preview.locator('code.language-python .hljs-keyword').first()).toBeVisible();
}

async function openThemes(page: Page): Promise<Locator> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  const settings = page.getByTestId('theme-settings');
  await expect(settings.getByTestId('theme-row').first()).toBeVisible();
  return settings;
}

async function installAndEnable(page: Page, themeId: string, css: string): Promise<Locator> {
  const settings = await openThemes(page);
  await settings.getByTestId('theme-import-zip').setInputFiles({
    name: `${themeId}.zip`,
    mimeType: 'application/zip',
    buffer: themePackage(themeId, css),
  });
  const inspection = settings.getByTestId('theme-inspection');
  await inspection.getByTestId('theme-install').click();
  const row = settings.locator(`[data-testid="theme-row"][data-theme-id="${themeId}"]`);
  await row.getByTestId('theme-enable').click();
  await expect(row).toHaveAttribute('data-enabled', 'true');
  await page.keyboard.press('Escape');
  return settings;
}

test('code colours reach 4.5:1 in the built-in light and dark themes', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Code in both schemes', NOTE);
  const preview = page.getByTestId('preview');
  await highlighted(preview);
  await expect(preview.locator('pre').first()).toHaveCSS('background-color', 'rgb(246, 248, 250)');
  expect(await lowContrastTokens(page, '[data-testid="preview"]')).toEqual([]);

  const settings = await openThemes(page);
  await settings
    .locator('[data-testid="theme-row"][data-theme-id="dark"]')
    .getByTestId('theme-enable')
    .click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Escape');
  await expect(preview.locator('pre').first()).toHaveCSS('background-color', 'rgb(31, 35, 42)');
  expect(await lowContrastTokens(page, '[data-testid="preview"]')).toEqual([]);
});

test('a light theme package with a dark code background gets code colours that read on it', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Code on One Dark', NOTE);
  const preview = page.getByTestId('preview');
  await highlighted(preview);

  // Its preview, before it is installed, already shows the code as it will look.
  const settings = await openThemes(page);
  await settings.getByTestId('theme-import-zip').setInputFiles({
    name: 'one-dark-code.zip',
    mimeType: 'application/zip',
    buffer: themePackage('one-dark-code', ONE_DARK_CODE_CSS),
  });
  const frameElement = settings.getByTestId('theme-preview');
  const frameLocator = page.frameLocator('[data-testid="theme-preview"]');
  await expect(frameLocator.locator('pre')).toHaveCSS('background-color', 'rgb(40, 44, 52)');
  await expect(frameLocator.locator('pre .hljs-keyword').first()).toBeVisible();
  const frame = (await frameElement.elementHandle())!.contentFrame();
  expect(await lowContrastTokens((await frame)!, 'body')).toEqual([]);

  await settings.getByTestId('theme-inspection').getByTestId('theme-install').click();
  const row = settings.locator('[data-testid="theme-row"][data-theme-id="one-dark-code"]');
  await row.getByTestId('theme-enable').click();
  await expect(row).toHaveAttribute('data-enabled', 'true');
  await page.keyboard.press('Escape');

  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(250, 250, 250)');
  await expect(preview.locator('pre').first()).toHaveCSS('background-color', 'rgb(40, 44, 52)');
  expect(await lowContrastTokens(page, '[data-testid="preview"]')).toEqual([]);

  // The same after a reload, from the stored theme.
  await page.reload();
  await highlighted(preview);
  await expect(preview.locator('pre').first()).toHaveCSS('background-color', 'rgb(40, 44, 52)');
  expect(await lowContrastTokens(page, '[data-testid="preview"]')).toEqual([]);
});

test('a token colour the theme sets is the one drawn', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Code in purple', NOTE);
  const preview = page.getByTestId('preview');
  await highlighted(preview);
  await installAndEnable(
    page,
    'purple-keywords',
    `${ONE_DARK_CODE_CSS}:root { --code-keyword: #c678dd; --code-built-in: #e5c07b; }\n`,
  );
  await expect(preview.locator('pre').first()).toHaveCSS('background-color', 'rgb(40, 44, 52)');
  await expect(preview.locator('code.language-js .hljs-keyword').first()).toHaveCSS(
    'color',
    'rgb(198, 120, 221)',
  );
  await expect(preview.locator('code.language-python .hljs-keyword').first()).toHaveCSS(
    'color',
    'rgb(198, 120, 221)',
  );
  await expect(preview.locator('code.language-python .hljs-built_in').first()).toHaveCSS(
    'color',
    'rgb(229, 192, 123)',
  );
  // What it left out still reads on its background.
  expect(await lowContrastTokens(page, '[data-testid="preview"]')).toEqual([]);
});
