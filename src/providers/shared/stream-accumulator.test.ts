import { describe, expect, it } from 'vitest';
import standardStream from '../../ir/__fixtures__/standard-stream.jsonl?raw';
import { metonaStreamEventSchema } from '../../ir';
import { StreamAccumulator } from './stream-accumulator';

describe('StreamAccumulator', () => {
  it("folds the standard's example stream into its response", () => {
    const accumulator = new StreamAccumulator();
    for (const line of standardStream.split('\n').filter(Boolean)) {
      accumulator.add(metonaStreamEventSchema.parse(JSON.parse(line)));
    }
    const response = accumulator.toResponse({
      requestId: 'r_1',
      provider: 'deepseek',
      model: 'deepseek-chat',
      latencyMs: 800,
      timestamp: 1719000000800,
    });
    expect(response.content).toBe('根据分析，答案是...');
    expect(response.reasoningContent).toBe('让我先分析问题的关键点...');
    expect(response.usage).toEqual({ inputTokens: 120, outputTokens: 45, totalTokens: 165 });
    expect(response.toolCalls).toHaveLength(1);
    expect(response.finishReason).toBe('tool_calls');
    expect(accumulator.thinking).toMatchObject({ status: 'complete', durationMs: 500 });
    expect(accumulator.finished).toBe(true);
  });
});
