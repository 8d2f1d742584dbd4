import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../contracts';
import { MetonaRiskLevel, MetonaToolCategory, metonaToolDefSchema, type MetonaToolCall } from '../ir';
import { toMetonaToolParams } from './tool-params';
import { ToolRegistry, defineTool, type ToolExecuteOptions } from './tool-registry';

const call = (name: string, args: Record<string, unknown>): MetonaToolCall => ({
  id: `call_${name}`,
  name,
  args,
  iteration: 1,
  timestamp: 0,
});

const options = (overrides: Partial<ToolExecuteOptions> = {}): ToolExecuteOptions => ({
  signal: new AbortController().signal,
  runId: 'run',
  sessionId: 'session',
  step: 1,
  ...overrides,
});

function echoTool(name = 'test.echo') {
  let executions = 0;
  const tool = defineTool({
    name,
    description: 'Echoes its text.',
    parameters: z.object({ text: z.string().min(1), times: z.number().int().min(1).max(3).default(1) }),
    category: MetonaToolCategory.CUSTOM,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    async execute({ text, times }) {
      executions += 1;
      return { result: { echoed: text.repeat(times) }, summary: `echo: ${text.repeat(times)}` };
    },
  });
  return { tool, executions: () => executions };
}

describe('toMetonaToolParams', () => {
  it('keeps what the IR can hold and folds the rest into descriptions', () => {
    const schema = z.object({
      query: z.string().min(1).describe('What to look for'),
      limit: z.number().int().min(1).max(20).default(5),
      mode: z.enum(['fts', 'hybrid']).optional(),
      tags: z.array(z.string()).optional(),
      filter: z.object({ folder: z.string(), depth: z.number().optional() }).optional(),
      level: z.union([z.literal(1), z.literal(2)]).optional(),
      note: z.string().nullable().optional(),
    });
    const { params, folded } = toMetonaToolParams(schema);

    expect(params.required).toEqual(['query']); // a default makes `limit` optional for the model
    expect(params.properties.query).toEqual({
      type: 'string',
      description: 'What to look for (at least 1 characters)',
    });
    expect(params.properties.limit).toEqual({
      type: 'number',
      description: '(an integer; ≥ 1; ≤ 20; default 5)',
    });
    expect(params.properties.mode).toEqual({ type: 'string', description: '', enum: ['fts', 'hybrid'] });
    expect(params.properties.tags).toEqual({
      type: 'array',
      description: '',
      items: { type: 'string', description: '' },
    });
    expect(params.properties.filter?.type).toBe('object');
    expect(params.properties.filter?.description).toBe(
      '(fields: folder (string, required); depth (number, optional))',
    );
    expect(params.properties.note?.description).toContain('may be null');
    expect(folded).toEqual(
      expect.arrayContaining(['limit: type', 'limit: default', 'filter: properties', 'note: type']),
    );
  });

  it('rejects parameters that are not an object', () => {
    expect(() => toMetonaToolParams(z.string())).toThrow(/must be a zod object/);
  });
});

describe('ToolRegistry', () => {
  it('exposes tools as valid MetonaToolDef, narrowed by allowed names', () => {
    const registry = new ToolRegistry().register(echoTool('test.a').tool, echoTool('test.b').tool);
    const definitions = registry.definitions();
    expect(definitions.map((d) => d.name)).toEqual(['test.a', 'test.b']);
    for (const definition of definitions) expect(metonaToolDefSchema.parse(definition)).toEqual(definition);
    expect(definitions[0]).toMatchObject({ timeoutMs: 30_000, requiresPermission: false, riskLevel: 'safe' });
    expect(registry.definitions(['test.b']).map((d) => d.name)).toEqual(['test.b']);
    expect(registry.get('test.a')?.permission).toBe('test.write');
    expect(registry.get('test.a')?.jsonSchema).toMatchObject({ type: 'object', required: ['text'] });
  });

  it('rejects duplicate and un-namespaced names', () => {
    const registry = new ToolRegistry().register(echoTool().tool);
    expect(() => registry.register(echoTool().tool)).toThrow(/registered twice/);
    expect(() => registry.register(echoTool('echo').tool)).toThrow(/namespaced/);
    expect(() => registry.register(echoTool('test.has space').tool)).toThrow(/namespaced/);
  });

  it('validates before executing: invalid calls are reported, not run', async () => {
    const { tool, executions } = echoTool();
    const registry = new ToolRegistry().register(tool);
    const invalid = await registry.execute(call('test.echo', { text: '', times: 9 }), options());
    expect(invalid.status).toBe('invalid_arguments');
    expect(invalid.result).toMatchObject({
      success: false,
      toolCallId: 'call_test.echo',
      toolName: 'test.echo',
    });
    expect(invalid.result.error).toMatch(/text: .*; times: /);
    expect(executions()).toBe(0);

    const ok = await registry.execute(call('test.echo', { text: 'hi', times: 2 }), options());
    expect(ok).toMatchObject({ status: 'ok', args: { text: 'hi', times: 2 } });
    expect(ok.result).toMatchObject({ success: true, result: { echoed: 'hihi' }, summary: 'echo: hihi' });
    expect(executions()).toBe(1);
  });

  it('reports unknown and disallowed tools', async () => {
    const registry = new ToolRegistry().register(echoTool().tool);
    const unknown = await registry.execute(call('test.nope', {}), options());
    expect(unknown).toMatchObject({ status: 'unknown_tool', result: { success: false } });
    const refused = await registry.execute(
      call('test.echo', { text: 'x' }),
      options({ allowedTools: new Set(['other.tool']) }),
    );
    expect(refused.status).toBe('not_allowed');
  });

  it('times a tool out, even one that ignores its signal', async () => {
    const stuck = defineTool({
      name: 'test.stuck',
      description: 'Never ends.',
      parameters: z.object({}),
      category: MetonaToolCategory.CUSTOM,
      riskLevel: MetonaRiskLevel.SAFE,
      requiresPermission: false,
      timeoutMs: 20,
      execute: () => new Promise(() => undefined),
    });
    const registry = new ToolRegistry().register(stuck);
    const outcome = await registry.execute(call('test.stuck', {}), options());
    expect(outcome.status).toBe('timeout');
    expect(outcome.result.error).toMatch(/within 20 ms/);
  });

  it('turns a thrown error into a failed result with the message only', async () => {
    const failing = defineTool({
      name: 'test.fail',
      description: 'Throws.',
      parameters: z.object({}),
      category: MetonaToolCategory.CUSTOM,
      riskLevel: MetonaRiskLevel.SAFE,
      requiresPermission: false,
      async execute() {
        throw new Error('disk on fire');
      },
    });
    const outcome = await new ToolRegistry().register(failing).execute(call('test.fail', {}), options());
    expect(outcome).toMatchObject({
      status: 'error',
      errorCode: 'INTERNAL_ERROR',
      result: { success: false, error: 'The tool test.fail failed: disk on fire' },
    });
    expect(outcome.result.error).not.toMatch(/at .*\(|Error:/);
  });

  it('gives every thrown failure a code: the AppError’s own, a plugin’s MCP_TOOL_CALL_FAILED', async () => {
    const thrower = (name: string, category: MetonaToolCategory, error: unknown) =>
      defineTool({
        name,
        description: 'Throws.',
        parameters: z.object({}),
        category,
        riskLevel: MetonaRiskLevel.SAFE,
        requiresPermission: false,
        async execute() {
          throw error;
        },
      });
    const registry = new ToolRegistry().register(
      thrower('notes.gone', MetonaToolCategory.FILESYSTEM, new AppError('NOTE_NOT_FOUND', 'No such note.')),
      thrower('plugin.crash', MetonaToolCategory.MCP, new TypeError('x is undefined')),
      thrower('test.odd', MetonaToolCategory.CUSTOM, 'not an Error'),
    );
    expect(await registry.execute(call('notes.gone', {}), options())).toMatchObject({
      errorCode: 'NOTE_NOT_FOUND',
      result: { error: 'No such note.' },
    });
    expect(await registry.execute(call('plugin.crash', {}), options())).toMatchObject({
      errorCode: 'MCP_TOOL_CALL_FAILED',
      result: { error: 'The tool plugin.crash failed: x is undefined' },
    });
    expect(await registry.execute(call('test.odd', {}), options())).toMatchObject({
      errorCode: 'INTERNAL_ERROR',
      result: { error: 'The tool test.odd failed: it gave no reason.' },
    });
  });

  it('asks the authorizer after validation and honours a denial', async () => {
    const { tool, executions } = echoTool();
    const registry = new ToolRegistry().register(tool);
    const asked: unknown[] = [];
    const denied = await registry.execute(
      call('test.echo', { text: 'x' }),
      options({
        authorize: async (_tool, args) => {
          asked.push(args);
          return { allowed: false, reason: 'no' };
        },
      }),
    );
    expect(denied).toMatchObject({ status: 'denied', result: { error: 'no' } });
    expect(asked).toEqual([{ text: 'x', times: 1 }]);
    expect(executions()).toBe(0);
  });

  it('reports a call whose tool was withdrawn while it waited as withdrawn, not run', async () => {
    const { tool, executions } = echoTool();
    const outcome = await new ToolRegistry()
      .register(tool)
      .execute(
        call('test.echo', { text: 'x' }),
        options({ authorize: async () => ({ allowed: false, reason: 'gone', withdrawn: true }) }),
      );
    expect(outcome).toMatchObject({ status: 'withdrawn', result: { success: false, error: 'gone' } });
    expect(executions()).toBe(0);
  });
});
