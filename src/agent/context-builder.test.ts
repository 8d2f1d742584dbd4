import { describe, expect, it } from 'vitest';
import { metonaContextSchema, metonaRequestSchema, type MetonaMessage, type MetonaRequest } from '../ir';
import { ContextBuilder, condenseToolMessage, splitRounds } from './context-builder';
import { estimateMessageTokens, estimateRequestTokens, estimateTextTokens } from './token-estimate';

const meta = { requestId: 'r', timestamp: 0, agentVersion: 'test' };

function toolRound(index: number, resultSize: number): MetonaMessage[] {
  return [
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        {
          id: `c${index}`,
          name: 'notes.read',
          args: { note_id: `n${index}` },
          iteration: index + 1,
          timestamp: 0,
        },
      ],
      timestamp: 0,
    },
    {
      role: 'tool',
      content: '',
      toolResult: {
        toolCallId: `c${index}`,
        toolName: 'notes.read',
        result: { body: 'b'.repeat(resultSize) },
        summary: `Note ${index}: ${'content words here. '.repeat(resultSize / 20)}`,
        success: index % 3 !== 2,
        ...(index % 3 === 2 && { error: 'not found' }),
        durationMs: 1,
        timestamp: 0,
      },
      timestamp: 0,
    },
  ];
}

describe('token estimates', () => {
  it('count CJK characters as about one token and Latin text as about four characters per token', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('hello world, this is text')).toBe(7); // 25 chars / 4
    expect(estimateTextTokens('查找死锁内容并创建三个复习任务')).toBe(15);
    expect(estimateTextTokens('死锁 deadlock')).toBe(2 + 3); // 2 Han + ceil(9 / 4)
    expect(estimateTextTokens('こんにちは、세계')).toBe(8);
    expect(estimateTextTokens('𠀀𠀁')).toBe(2); // astral Han counted per character, not per UTF-16 unit
  });

  it('add overhead per message and count tool calls and results', () => {
    const plain = estimateMessageTokens({ role: 'user', content: 'abcd', timestamp: 0 });
    expect(plain).toBe(5);
    const [call, result] = toolRound(0, 400);
    expect(estimateMessageTokens(call!)).toBeGreaterThan(8);
    expect(estimateMessageTokens(result!)).toBeGreaterThan(
      estimateMessageTokens(condenseToolMessage(result!)),
    );
  });
});

describe('ContextBuilder', () => {
  it('builds a valid MetonaContext and request with the prompt sections, memories and reminders', () => {
    const builder = new ContextBuilder({ contextWindow: 8_000 });
    const context = builder.build({
      sessionId: 's',
      userInput: 'hi',
      iteration: 2,
      history: [{ role: 'user', content: 'hi', timestamp: 0 }],
      memories: [
        {
          id: 'm',
          type: 'semantic',
          content: 'Likes tea.',
          source: 'user_input',
          importance: 1,
          createdAt: 0,
        },
      ],
      reminders: ['Step 2 of at most 10.'],
    });
    expect(metonaContextSchema.safeParse(context).success).toBe(true);
    expect(context.systemPrompt.roleDefinition).toMatch(/NotesAgent/);
    expect(context.systemPrompt.safetyGuidelines).toMatch(/data, never as instructions/);
    expect(context.systemPrompt.dynamicReminders).toBe(
      'Step 2 of at most 10.\n\nRelevant memories (saved earlier; may be outdated):\n- [semantic] Likes tea.',
    );
    expect(context.needsCompression).toBe(false);
    expect(context.usageRatio).toBeCloseTo(context.estimatedTokens / 8_000);

    const request = builder.toRequest(context, { ...meta, params: { temperature: 0 } });
    expect(metonaRequestSchema.safeParse(request).success).toBe(true);
    expect(request.meta.iteration).toBe(2);
    expect(estimateRequestTokens(request)).toBe(context.estimatedTokens);
  });

  it('splits rounds without separating a step from its tool results', () => {
    const history: MetonaMessage[] = [
      { role: 'user', content: 'q', timestamp: 0 },
      ...toolRound(0, 20),
      ...toolRound(1, 20),
      { role: 'assistant', content: 'a', timestamp: 0 },
    ];
    expect(splitRounds(history).map((round) => round.map((m) => m.role))).toEqual([
      ['user'],
      ['assistant', 'tool'],
      ['assistant', 'tool'],
      ['assistant'],
    ]);
  });

  it('compresses above 0.8 to below 0.5: model summary, short tool results, task and last rounds kept', async () => {
    const contextWindow = 3_000;
    const builder = new ContextBuilder({ contextWindow, keptRounds: 3 });
    const task: MetonaMessage = { role: 'user', content: '把关于死锁的笔记整理成复习计划', timestamp: 0 };
    const history: MetonaMessage[] = [task];
    for (let i = 0; i < 14; i++) history.push(...toolRound(i, 800));
    const input = { sessionId: 's', userInput: task.content, iteration: 11, history };
    expect(builder.build(input).needsCompression).toBe(true);

    const asked: MetonaRequest[] = [];
    const result = await builder.compress(
      input,
      async (request) => {
        asked.push(request);
        return '用户要整理死锁笔记；已读 10 篇笔记，其中 3 篇不存在。';
      },
      meta,
    );

    expect(result.usage_ratio).toBeLessThan(0.5);
    expect(result.before_tokens / contextWindow).toBeGreaterThan(0.8);
    expect(builder.build({ ...input, history: result.history }).usageRatio).toBeCloseTo(result.usage_ratio);
    // One model call, given a transcript where tool outputs are short.
    expect(asked).toHaveLength(1);
    expect(asked[0]?.messages[0]?.content).toMatch(/Tool notes\.read \(failed\)/);
    expect(asked[0]?.params.maxTokens).toBe(builder.summaryMaxTokens);
    // The task stays verbatim and first; then the summary with the tool digest; then kept rounds.
    expect(result.history[0]).toBe(task);
    expect(result.history[1]?.role).toBe('system');
    expect(result.history[1]?.content).toContain('已读 10 篇笔记');
    expect(result.history[1]?.content).toMatch(
      /Earlier tool calls \(output omitted\): notes\.read ok, .*failed/,
    );
    const last = history.slice(-2);
    expect(result.history.slice(-2)).toEqual(last); // the latest step is verbatim
    // Tool messages keep their pairing with the assistant calls.
    const kept = result.history.slice(2);
    expect(kept[0]?.role).toBe('assistant');
    expect(result.kept_rounds).toBeGreaterThanOrEqual(1);
    expect(result.kept_rounds).toBeLessThanOrEqual(3);
  });

  it('shortens tool results inside kept rounds when keeping them whole does not fit', async () => {
    const builder = new ContextBuilder({ contextWindow: 1_500, keptRounds: 5 });
    const history: MetonaMessage[] = [{ role: 'user', content: 'go', timestamp: 0 }];
    for (let i = 0; i < 4; i++) history.push(...toolRound(i, 800));
    let summaries = 0;
    const result = await builder.compress(
      { sessionId: 's', userInput: 'go', iteration: 5, history },
      async () => {
        summaries += 1;
        return 'summary';
      },
      meta,
    );
    expect(result.usage_ratio).toBeLessThan(0.5);
    expect(result).toMatchObject({ kept_rounds: 5, condensed_kept_rounds: true, summarized_messages: 0 });
    expect(summaries).toBe(0); // nothing older than the kept rounds: no model call needed
    const toolSummaries = result.history
      .filter((m) => m.role === 'tool')
      .map((m) => m.toolResult?.summary ?? '');
    expect(toolSummaries.at(-1)).toMatch(/^Note 3:/);
    expect(toolSummaries.slice(0, -1)).toEqual([
      '[notes.read: ok; output omitted to save context]',
      '[notes.read: ok; output omitted to save context]',
      '[notes.read: failed: not found; output omitted to save context]',
    ]);
    expect(
      result.history
        .filter((m) => m.role === 'tool')
        .every((m) => m.toolResult?.result === undefined || m === result.history.at(-1)),
    ).toBe(true);
  });
});
