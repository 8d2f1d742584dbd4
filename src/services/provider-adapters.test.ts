import { describe, expect, it } from 'vitest';
import type { MetonaRequest } from '../ir';
import { formatSources } from './notes-context';
import { buildAdapter } from './provider-adapters';

const withSources = (question: string): MetonaRequest => ({
  meta: { sessionId: 's', iteration: 1, requestId: 'r', timestamp: 0, agentVersion: 'test' },
  systemPrompt: {
    roleDefinition: '',
    outputConstraints: '',
    safetyGuidelines: '',
    dynamicReminders: formatSources([
      {
        note_id: 'n1',
        block_id: 'b1',
        title: '操作系统笔记',
        snippet: '时间片',
        start_line: 1,
        text: '时间片轮转调度。',
      },
    ]),
  },
  messages: [{ role: 'user', content: question, timestamp: 0 }],
  params: { stream: true },
});

const mock = (mockScenario?: string) =>
  buildAdapter(
    { provider_id: 'mock', preset: 'mock', base_url: '', model: 'mock-1' },
    { sleep: () => Promise.resolve(), ...(mockScenario && { mockScenario }) },
  );

const plain = (question: string): MetonaRequest => {
  const request = withSources(question);
  return { ...request, systemPrompt: { ...request.systemPrompt, dynamicReminders: undefined } };
};

describe('the mock provider with note sources', () => {
  it('cites the first source in Chinese when asked in Chinese', async () => {
    const response = await mock().send(withSources('进程调度的时间片轮转是什么？'));
    expect(response.content).toBe('根据你的笔记“操作系统笔记”，你写的内容如下 [1]。');
  });

  it('cites the first source in English when asked in English', async () => {
    const response = await mock().send(withSources('What is round-robin scheduling?'));
    expect(response.content).toBe('According to your note “操作系统笔记”, here is what you wrote [1].');
  });
});

describe('the mock provider without note sources', () => {
  it('greets in Chinese when written to in Chinese', async () => {
    const response = await mock().send(plain('你好'));
    expect(response.content).toContain('你好！我是 **mock** 模型');
  });

  it('greets in English when written to in English', async () => {
    const response = await mock().send(plain('Hello'));
    expect(response.content).toContain('Hello! I am the **mock** model');
  });

  it('keeps the scenario a test chose, whatever the language', async () => {
    const response = await mock('text').send(plain('你好'));
    expect(response.content).toBe('Hello! How can I help you today?');
  });
});
