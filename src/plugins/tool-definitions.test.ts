import { describe, expect, it } from 'vitest';
import { compileSchema, SchemaProblem } from './json-schema';
import { checkListedTools, PERMISSION_META_KEY, type ListedTool } from './tool-definitions';

const expectations = {
  pluginId: 'demo',
  agentTools: ['demo.search', 'demo.write'],
  commandTools: [],
  permissions: ['notes.read'],
};
const tool = (name: string, extra: Partial<ListedTool> = {}): ListedTool => ({
  name,
  description: `${name} things`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});

describe('JSON Schema checks (Draft 2020-12, in-document references only)', () => {
  it('validates with in-document $ref and $defs', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { limit: { $ref: '#/$defs/limit' } },
      $defs: { limit: { type: 'integer', minimum: 1 } },
    });
    expect(compiled.validate({ limit: 3 })).toEqual([]);
    expect(compiled.validate({ limit: 0 })).toEqual([expect.objectContaining({ path: '/limit' })]);
  });

  it.each([
    ['a URL', 'https://example.com/schema.json'],
    ['a file', 'file:///etc/passwd'],
    ['another resource', 'other.json#/x'],
  ])('refuses a $ref to %s', (_what, ref) => {
    expect(() => compileSchema({ type: 'object', properties: { a: { $ref: ref } } })).toThrow(SchemaProblem);
  });

  it('refuses a $dynamicRef that leaves the document and an unresolvable fragment', () => {
    expect(() =>
      compileSchema({ type: 'object', properties: { a: { $dynamicRef: 'http://x/y#n' } } }),
    ).toThrow(SchemaProblem);
    expect(() => compileSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toThrow(
      SchemaProblem,
    );
  });

  it('accepts draft-07 labelled schemas and refuses unknown dialects', () => {
    expect(
      compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }).validate({}),
    ).toEqual([]);
    expect(() => compileSchema({ $schema: 'https://example.com/dialect', type: 'object' })).toThrow(
      SchemaProblem,
    );
  });

  it('refuses a schema nested deeper than the bound', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 80; i++) schema = { type: 'object', properties: { a: schema } };
    expect(() => compileSchema(schema)).toThrow(/nested too deeply/);
  });
});

describe('tools/list → project tool definitions', () => {
  it('namespaces every tool and keeps a declared permission', () => {
    const tools = checkListedTools(
      [tool('search', { _meta: { [PERMISSION_META_KEY]: 'notes.read' } }), tool('write')],
      expectations,
    );
    expect(tools.map((t) => [t.name, t.tool_name, t.permission])).toEqual([
      ['demo.search', 'search', 'notes.read'],
      ['demo.write', 'write', null],
    ]);
  });

  it.each([
    ['a duplicate name', [tool('search'), tool('search'), tool('write')], 'a duplicate name'],
    [
      'an invalid schema',
      [tool('search', { inputSchema: { type: 'object', properties: { q: { type: 7 } } } }), tool('write')],
      'invalid input schema',
    ],
    [
      'a non-object schema',
      [tool('search', { inputSchema: { type: 'string' } }), tool('write')],
      'not an object schema',
    ],
    [
      'a $ref to a URL',
      [
        tool('search', { inputSchema: { type: 'object', properties: { q: { $ref: 'https://e.com/s' } } } }),
        tool('write'),
      ],
      'must point inside',
    ],
    [
      'a permission the manifest lacks',
      [tool('search', { _meta: { [PERMISSION_META_KEY]: 'notes.write' } }), tool('write')],
      'does not declare',
    ],
    [
      'an unknown permission',
      [tool('search', { _meta: { [PERMISSION_META_KEY]: 'root' } }), tool('write')],
      'unknown permission',
    ],
    ['a missing tool', [tool('search')], 'missing demo.write'],
    ['an undeclared tool', [tool('search'), tool('write'), tool('extra')], 'undeclared demo.extra'],
    ['a bad name', [tool('../x'), tool('write')], 'name that is not allowed'],
  ])('refuses the whole list for %s', (_what, listed, reason) => {
    expect(() => checkListedTools(listed, expectations)).toThrow(
      expect.objectContaining({ code: 'MCP_TOOL_SCHEMA_INVALID', message: expect.stringContaining(reason) }),
    );
  });
});

describe('what the page needs to word a refused tool list', () => {
  const problemOf = (listed: ListedTool[]) => {
    try {
      checkListedTools(listed, expectations);
    } catch (error) {
      return (error as { details: Record<string, unknown> }).details;
    }
    throw new Error('the list was accepted');
  };

  it.each([
    ['schema_invalid', [tool('search', { inputSchema: { type: 'object', properties: { q: { type: 7 } } } })]],
    ['schema_not_object', [tool('search', { inputSchema: { type: 'string' } })]],
    ['name_duplicate', [tool('search'), tool('search')]],
    ['permission_unknown', [tool('search', { _meta: { [PERMISSION_META_KEY]: 'root' } })]],
    ['permission_undeclared', [tool('search', { _meta: { [PERMISSION_META_KEY]: 'notes.write' } })]],
  ])('gives the problem %s as a stable id, with the tool', (problem, listed) => {
    expect(problemOf([...listed, tool('write')])).toMatchObject({ problem, tool: 'search' });
  });

  it('says the lists differ, naming no tool, when the server and the manifest disagree', () => {
    const details = problemOf([tool('search')]);
    expect(details).toMatchObject({ problem: 'manifest_mismatch' });
    expect(details).not.toHaveProperty('tool');
  });
});

describe('a tool’s title', () => {
  it('keeps the MCP title, else the annotations’ title, and drops blank or overlong ones', () => {
    const tools = checkListedTools(
      [
        tool('search', { title: '  Search   the web ' }),
        tool('write', { annotations: { title: 'Write it' } }),
      ],
      expectations,
    );
    expect(tools.map((t) => t.title)).toEqual(['Search the web', 'Write it']);
    const untitled = checkListedTools(
      [tool('search', { title: '   ' }), tool('write', { title: 'x'.repeat(81) })],
      expectations,
    );
    expect(untitled.map((t) => t.title)).toEqual([undefined, undefined]);
  });
});
