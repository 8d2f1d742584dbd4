import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/** The layer rules of docs/architecture.md are enforced by lint; these cases prove the rules bite. */
const eslint = new ESLint({ cwd: process.cwd() });
/** The cycle rule walks the real import graph from each virtual file; the layer cases do not need it. */
const layerLint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: { rules: { 'import-x/no-cycle': 'off' } },
});

// Loading the config, its plugins and parsers takes seconds on a busy machine: once, before the cases.
beforeAll(async () => {
  await Promise.all([
    layerLint.lintText('export {};\n', { filePath: 'src/core/warm-up.ts' }),
    eslint.lintText('export {};\n', { filePath: 'src/core/warm-up.ts' }),
  ]);
}, 120_000);

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await layerLint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((message) => message.message);
}

describe('layer rules', () => {
  it.each([
    ['src/core/x.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    ['src/services/x.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    ['src/ir/x.ts', "import { AppError } from '../contracts';\nexport const e = AppError;\n"],
    ['src/contracts/x.ts', "import { newId } from '../core/ids';\nexport const f = newId;\n"],
    ['src/core/x.ts', "import { openDatabase } from '../db';\nexport const f = openDatabase;\n"],
    [
      'src/core/x.ts',
      "import { NotesService } from '../services/notes-service';\nexport const f = NotesService;\n",
    ],
    [
      'src/db/x.ts',
      "import { NotesService } from '../services/notes-service';\nexport const f = NotesService;\n",
    ],
    ['src/ui/x.ts', "import { openDatabase } from '../db';\nexport const f = openDatabase;\n"],
    [
      'src/ui/x.ts',
      "import { createCoreApi } from '../services/core-api';\nexport const f = createCoreApi;\n",
    ],
    [
      'src/ui/x.ts',
      "import type { AgentRunDto } from '../services/agent-service';\nexport type A = AgentRunDto;\n",
    ],
    [
      'src/ui/x/y.ts',
      "import type { AgentService } from '../../services/agent-service';\nexport type A = AgentService;\n",
    ],
  ])('%s may not import that', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['src/db/x.ts', "import Dexie from 'dexie';\nexport const d = Dexie;\n"],
    ['src/core/x.ts', "import { AppError } from '../contracts';\nexport const e = AppError;\n"],
    ['src/services/x.ts', "import { openDatabase } from '../db';\nexport const f = openDatabase;\n"],
    ['src/ui/x.ts', "import type { CoreApi } from '../services/core-api';\nexport type A = CoreApi;\n"],
    [
      'src/ui/x/y.ts',
      "import type { AgentRunDto } from '../../contracts/agent-runs';\nexport type A = AgentRunDto;\n",
    ],
    ['src/ui/x.ts', "import { AppError } from '../contracts/errors';\nexport const f = AppError;\n"],
  ])('%s may import that', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});

describe('import cycles', () => {
  /** Lints throw-away files under src/ (the rule reads imports from disk) and names those in a cycle. */
  async function filesInCycles(files: Record<string, string>): Promise<string[]> {
    const dir = mkdtempSync(join(process.cwd(), 'src', 'cycle-probe-'));
    try {
      for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, name), code);
      const results = await eslint.lintFiles([dir]);
      return results
        .filter((result) => result.messages.some((message) => message.ruleId === 'import-x/no-cycle'))
        .map((result) => basename(result.filePath))
        .sort();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const component = (child: string) =>
    `<script lang="ts">\n  import Child from './${child}.svelte';\n  const depth: number = 1;\n</script>\n\n<Child />{depth}\n`;

  it('are reported, through .ts modules and through .svelte components', async () => {
    expect(
      await filesInCycles({
        'a.ts': "import { b } from './b';\nexport const a = (): unknown => b;\n",
        'b.ts': "import { a } from './a';\nexport const b = (): unknown => a;\n",
        'One.svelte': component('Two'),
        'Two.svelte': component('One'),
      }),
    ).toEqual(['One.svelte', 'Two.svelte', 'a.ts', 'b.ts']);
  });

  it('are not reported for imports without a way back, or for type-only imports', async () => {
    expect(
      await filesInCycles({
        'a.ts': "import { c } from './c';\nexport const a = (): unknown => c;\n",
        'b.ts': "import { a } from './a';\nexport const b = (): unknown => a;\n",
        'c.ts': "import type { B } from './d';\nexport const c = 1;\nexport type C = B;\n",
        'd.ts': "import { c } from './c';\nexport type B = typeof c;\n",
      }),
    ).toEqual([]);
  });
});
