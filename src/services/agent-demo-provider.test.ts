import { describe, expect, it } from 'vitest';
import type { MetonaRequest } from '../ir';
import {
  DEMO_LIMITS_ANSWER,
  DEMO_LIMITS_ANSWER_ZH,
  DemoAgentAdapter,
  tasksFromNote,
} from './agent-demo-provider';

const request = (content: string): MetonaRequest => ({
  meta: { sessionId: 's', iteration: 1, requestId: 'r', timestamp: 0, agentVersion: 'test' },
  systemPrompt: { roleDefinition: '', outputConstraints: '', safetyGuidelines: '' },
  messages: [{ role: 'user', content, timestamp: 0 }],
  params: { stream: true },
});

describe('DemoAgentAdapter', () => {
  it('says what it cannot do in English when asked in English', async () => {
    const response = await new DemoAgentAdapter().send(request('Summarise my operating systems note'));
    expect(response.content).toBe(DEMO_LIMITS_ANSWER);
  });

  it('says what it cannot do in Chinese when asked in Chinese', async () => {
    const response = await new DemoAgentAdapter().send(request('总结我的操作系统笔记'));
    expect(response.content).toBe(DEMO_LIMITS_ANSWER_ZH);
  });

  it('answers a Chinese request that it cannot finish in Chinese', async () => {
    const asked = request('为死锁笔记创建复习任务');
    asked.messages.push(
      { role: 'assistant', content: '', timestamp: 0 },
      {
        role: 'tool',
        content: '',
        timestamp: 0,
        toolResult: {
          toolCallId: 'c',
          toolName: 'rag.search',
          success: true,
          result: { hits: [] },
          durationMs: 1,
          timestamp: 0,
        },
      },
    );
    const response = await new DemoAgentAdapter().send(asked);
    expect(response.content).toBe('笔记本里没有与这个请求相符的笔记。');
  });
});

describe('tasksFromNote', () => {
  const body = '# 死锁\n\n## 四个必要条件\n\n互斥、占有并等待。';

  it('writes the review tasks in the language of the request', () => {
    expect(tasksFromNote(body, 2, 'zh')).toEqual(['复习：四个必要条件', '复习：互斥、占有并等待']);
    expect(tasksFromNote(body, 3, 'en').at(-1)).toBe('Review the note (part 3)');
  });
});
