import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { example2Request2, example2Tools, memoryItem } from './__fixtures__/standard-examples';
import {
  METONA_COMPRESSION_TARGET_RATIO,
  METONA_COMPRESSION_TRIGGER_RATIO,
  METONA_DEFAULT_KEPT_ROUNDS,
  metonaContextSchema,
  needsCompression,
  type MetonaContext,
} from './index';

const issuePaths = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

const context: MetonaContext = {
  id: 'ctx_1',
  sessionId: 's_xyz',
  systemPrompt: example2Request2.systemPrompt,
  history: example2Request2.messages,
  relevantMemories: [memoryItem],
  currentTask: { userInput: '读取 /home/user/data.csv 并分析内容。', iteration: 2, taskGoal: '分析 CSV' },
  availableTools: example2Tools,
  estimatedTokens: 5200,
  usageRatio: 0.04,
  needsCompression: false,
};

describe('MetonaContext', () => {
  it('accepts a context built from example 2', () => {
    expect(metonaContextSchema.parse(context)).toEqual(context);
  });

  it('rejects a missing task input, a negative ratio and invalid history', () => {
    const noInput = { ...context, currentTask: { iteration: 1 } };
    expect(issuePaths(metonaContextSchema, noInput)).toEqual(['currentTask.userInput']);
    expect(issuePaths(metonaContextSchema, { ...context, usageRatio: -0.1 })).toEqual(['usageRatio']);
    const toolResult = example2Request2.messages[2]!.toolResult;
    const badHistory = { ...context, history: [{ ...context.history[0], toolResult }] };
    expect(issuePaths(metonaContextSchema, badHistory)).toEqual(['history.0.toolResult']);
  });

  it('allows an overfull context (usageRatio above 1)', () => {
    expect(
      metonaContextSchema.safeParse({ ...context, usageRatio: 1.2, needsCompression: true }).success,
    ).toBe(true);
  });
});

describe('context compression thresholds', () => {
  it('match the standard: compress above 0.8, target below 0.5, keep 5 rounds', () => {
    expect(METONA_COMPRESSION_TRIGGER_RATIO).toBe(0.8);
    expect(METONA_COMPRESSION_TARGET_RATIO).toBe(0.5);
    expect(METONA_DEFAULT_KEPT_ROUNDS).toBe(5);
  });

  it('needsCompression is strictly above the trigger', () => {
    expect(needsCompression(0.8)).toBe(false);
    expect(needsCompression(0.81)).toBe(true);
    expect(needsCompression(0.5)).toBe(false);
  });
});
