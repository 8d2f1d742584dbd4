import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layer rules of ARCHITECTURE.md are enforced by lint; these cases prove the rules bite. */
const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
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
