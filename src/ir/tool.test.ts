import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { example2Tools, t } from './__fixtures__/standard-examples';
import {
  MetonaRiskLevel,
  MetonaToolCategory,
  metonaParamFieldSchema,
  metonaToolCallSchema,
  metonaToolDefSchema,
  metonaToolParamsSchema,
  metonaToolResultSchema,
} from './index';

const issuePaths = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

describe('tool enums', () => {
  it('carry exactly the standard values', () => {
    expect(Object.values(MetonaToolCategory)).toEqual([
      'filesystem',
      'search',
      'calculation',
      'code_execution',
      'network',
      'database',
      'mcp',
      'custom',
    ]);
    expect(Object.values(MetonaRiskLevel)).toEqual(['safe', 'low', 'medium', 'high', 'critical']);
  });
});

describe('MetonaToolDef', () => {
  const [readFile] = example2Tools;

  it('accepts the example 2 tools', () => {
    for (const tool of example2Tools) expect(metonaToolDefSchema.parse(tool)).toEqual(tool);
  });

  it('rejects a wrong category, risk level or missing permission flag', () => {
    expect(issuePaths(metonaToolDefSchema, { ...readFile, category: 'file' })).toEqual(['category']);
    expect(issuePaths(metonaToolDefSchema, { ...readFile, riskLevel: 'extreme' })).toEqual(['riskLevel']);
    const { requiresPermission: _dropped, ...noPermission } = readFile!;
    expect(issuePaths(metonaToolDefSchema, noPermission)).toEqual(['requiresPermission']);
  });

  it('rejects a required parameter that is not declared', () => {
    const params = { type: 'object', properties: {}, required: ['file_path'] };
    expect(issuePaths(metonaToolParamsSchema, params)).toEqual(['required.0']);
  });
});

describe('MetonaParamField', () => {
  it('nests items recursively and checks every level', () => {
    const matrix = {
      type: 'array',
      description: 'rows',
      items: { type: 'array', description: 'cells', items: { type: 'number', description: 'cell' } },
    };
    expect(metonaParamFieldSchema.parse(matrix)).toEqual(matrix);
    const bad = { ...matrix, items: { ...matrix.items, items: { type: 'integer', description: 'cell' } } };
    expect(issuePaths(metonaParamFieldSchema, bad)).toEqual(['items.items.type']);
  });
});

describe('MetonaToolCall and MetonaToolResult', () => {
  const call = { id: 'tc_1', name: 'read_file', args: { file_path: '/a' }, iteration: 1, timestamp: t };

  it('accepts a complete call and rejects args that are not an object', () => {
    expect(metonaToolCallSchema.parse(call)).toEqual(call);
    expect(issuePaths(metonaToolCallSchema, { ...call, args: '{"file_path":"/a"}' })).toEqual(['args']);
    expect(issuePaths(metonaToolCallSchema, { ...call, iteration: 0 })).toEqual(['iteration']);
  });

  it('keeps the fault of arguments that were not JSON through a parse, and checks its shape', () => {
    const broken = { ...call, args: {}, argumentsError: { text: '{"a":,', reason: 'Unexpected token' } };
    expect(metonaToolCallSchema.parse(broken)).toEqual(broken);
    expect(issuePaths(metonaToolCallSchema, { ...call, argumentsError: { text: 1 } })).toEqual([
      'argumentsError.text',
      'argumentsError.reason',
    ]);
  });

  it('accepts a failed result and rejects one without success or with negative duration', () => {
    const failed = {
      toolCallId: 'tc_1',
      toolName: 'read_file',
      result: null,
      success: false,
      error: 'ENOENT',
      durationMs: 3,
      timestamp: t,
    };
    expect(metonaToolResultSchema.parse(failed)).toEqual(failed);
    const { success: _dropped, ...noSuccess } = failed;
    expect(issuePaths(metonaToolResultSchema, noSuccess)).toEqual(['success']);
    expect(issuePaths(metonaToolResultSchema, { ...failed, durationMs: -1 })).toEqual(['durationMs']);
  });
});
