// The standard's "完整示例", with Date.now() pinned and its /* ... */ gaps filled.
import type { MetonaMemoryItem, MetonaRequest, MetonaResponse, MetonaToolDef } from '../index';
import { MetonaFinishReason, MetonaRiskLevel, MetonaToolCategory } from '../index';

export const t = 1719000000000;

export const example1Request: MetonaRequest = {
  meta: { sessionId: 's_abc', iteration: 1, requestId: 'r_001', timestamp: t, agentVersion: '1.0.0' },
  systemPrompt: {
    roleDefinition: '你是一个专业的编程助手。',
    outputConstraints: '用中文回答，代码块使用 ``` 包裹。',
    safetyGuidelines: '不编造事实，不确定时如实说明。',
  },
  messages: [{ role: 'user', content: '解释 JavaScript 的事件循环机制。', timestamp: t }],
  params: { maxTokens: 4096, temperature: 0.0, stream: false, thinkingEnabled: false },
};

export const example1Response: MetonaResponse = {
  meta: { requestId: 'r_001', provider: 'deepseek', model: 'deepseek-v4-pro', latencyMs: 850, timestamp: t },
  content: 'JavaScript 的事件循环（Event Loop）是...\n\n```js\nconsole.log(1)...\n```',
  usage: { inputTokens: 120, outputTokens: 350, totalTokens: 470 },
  finishReason: MetonaFinishReason.STOP,
};

const filePathParams: MetonaToolDef['parameters'] = {
  type: 'object',
  properties: { file_path: { type: 'string', description: '文件路径' } },
  required: ['file_path'],
};

export const example2Tools: MetonaToolDef[] = [
  {
    name: 'read_file',
    description: '读取文件内容',
    parameters: filePathParams,
    category: MetonaToolCategory.FILESYSTEM,
    riskLevel: MetonaRiskLevel.LOW,
    requiresPermission: false,
    timeoutMs: 10_000,
  },
  {
    name: 'analyze_csv',
    description: '分析 CSV 数据',
    parameters: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: '文件路径' },
        columns: { type: 'array', description: '要分析的列', items: { type: 'string', description: '列名' } },
      },
      required: ['file_path'],
    },
    category: MetonaToolCategory.CALCULATION,
    riskLevel: MetonaRiskLevel.SAFE,
    requiresPermission: false,
    timeoutMs: 30_000,
  },
];

export const example2Request1: MetonaRequest = {
  meta: { sessionId: 's_xyz', iteration: 1, requestId: 'r_002', timestamp: t, agentVersion: '1.0.0' },
  systemPrompt: example1Request.systemPrompt,
  messages: [{ role: 'user', content: '读取 /home/user/data.csv 并分析内容。', timestamp: t }],
  tools: example2Tools,
  params: { stream: true, thinkingEnabled: true },
};

/** Round 2 with the toolCall completed: the standard's text omits its `timestamp`. */
export const example2Request2: MetonaRequest = {
  meta: { ...example2Request1.meta, iteration: 2, requestId: 'r_003' },
  systemPrompt: example1Request.systemPrompt,
  messages: [
    { role: 'user', content: '读取 /home/user/data.csv 并分析内容。', timestamp: t },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'tc_1', name: 'read_file', args: { file_path: '/home/user/data.csv' }, iteration: 1, timestamp: t },
      ],
      timestamp: t,
    },
    {
      role: 'tool',
      content: '',
      toolResult: {
        toolCallId: 'tc_1',
        toolName: 'read_file',
        result: '...',
        success: true,
        durationMs: 5,
        timestamp: t,
        summary: '文件 data.csv 包含 1000 行数据，字段为 name,age,email,city',
      },
      timestamp: t,
    },
  ],
  tools: example2Tools,
  params: { stream: true, thinkingEnabled: false },
};

export const memoryItem: MetonaMemoryItem = {
  id: 'm_1',
  type: 'semantic',
  content: '用户偏好用中文回答。',
  source: 'user_input',
  importance: 0.7,
  relevanceScore: 0.83,
  sessionId: 's_abc',
  createdAt: t,
};
