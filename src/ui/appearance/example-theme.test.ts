import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { checkThemePackage } from '../../themes';
import {
  EXAMPLE_THEME_CSS,
  EXAMPLE_THEME_FOLDER,
  EXAMPLE_THEME_YAML,
  exampleThemePackage,
} from './example-theme';

/** README's fenced blocks, their lines' list indentation taken off. */
function readmeBlocks(): string[] {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const blocks: string[] = [];
  for (const match of readme.matchAll(/^( *)```[a-z]*\n([\s\S]*?)^\1```$/gm)) {
    const indent = match[1]!;
    blocks.push(
      match[2]!
        .split('\n')
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join('\n'),
    );
  }
  return blocks;
}

describe('the example theme', () => {
  it('is the one README prints', () => {
    const blocks = readmeBlocks();
    expect(blocks).toContain(EXAMPLE_THEME_YAML);
    expect(blocks).toContain(EXAMPLE_THEME_CSS);
  });

  it('passes every check a theme package goes through, with no warning', () => {
    const files = unzipSync(exampleThemePackage());
    expect(
      Object.keys(files)
        .filter((path) => !path.endsWith('/'))
        .sort(),
    ).toEqual([`${EXAMPLE_THEME_FOLDER}/theme.css`, `${EXAMPLE_THEME_FOLDER}/theme.yaml`]);
    const checked = checkThemePackage(
      {
        name: EXAMPLE_THEME_FOLDER,
        files: new Map([['theme.css', files[`${EXAMPLE_THEME_FOLDER}/theme.css`]!]]),
      },
      parseYaml(EXAMPLE_THEME_YAML),
      '0.1.0',
    );
    expect(checked.compatible).toBe(true);
    expect(checked.warnings).toEqual([]);
    expect(checked.css).toContain('.markdown-preview h1');
  });
});
