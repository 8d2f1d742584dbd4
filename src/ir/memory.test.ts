import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { memoryItem } from './__fixtures__/standard-examples';
import { metonaMemoryItemSchema } from './index';

const issuePaths = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

describe('MetonaMemoryItem', () => {
  it('accepts every type and source of the standard', () => {
    expect(metonaMemoryItemSchema.parse(memoryItem)).toEqual(memoryItem);
    for (const type of ['episodic', 'semantic', 'working']) {
      for (const source of ['user_input', 'tool_result', 'agent_thought', 'imported']) {
        expect(metonaMemoryItemSchema.safeParse({ ...memoryItem, type, source }).success).toBe(true);
      }
    }
  });

  it('keeps importance within 0..1, bounds included', () => {
    expect(metonaMemoryItemSchema.safeParse({ ...memoryItem, importance: 0 }).success).toBe(true);
    expect(metonaMemoryItemSchema.safeParse({ ...memoryItem, importance: 1 }).success).toBe(true);
    expect(issuePaths(metonaMemoryItemSchema, { ...memoryItem, importance: 1.5 })).toEqual(['importance']);
    expect(issuePaths(metonaMemoryItemSchema, { ...memoryItem, importance: -0.1 })).toEqual(['importance']);
  });

  it('rejects unknown type or source and negative timestamps', () => {
    expect(issuePaths(metonaMemoryItemSchema, { ...memoryItem, type: 'long_term' })).toEqual(['type']);
    expect(issuePaths(metonaMemoryItemSchema, { ...memoryItem, source: 'web' })).toEqual(['source']);
    expect(issuePaths(metonaMemoryItemSchema, { ...memoryItem, expiresAt: -1 })).toEqual(['expiresAt']);
  });
});
