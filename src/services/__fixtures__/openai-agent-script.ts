/**
 * A scripted tool-using "model" behind the OpenAI-compatible wire format, for
 * the agent's service tests and the end-to-end server: from the request body
 * alone it plays search → read → tasks.create → answer, streaming each turn
 * as `chat.completion.chunk`s. The note id and version come from the tool
 * results the agent sent back, as a real model would read them.
 */

import type { AgentDatasetFile } from '../../contracts';

export const SCRIPT_TASKS = ['Explain the four conditions', 'Practise the banker algorithm', 'List recovery options'];
export const SCRIPT_ANSWER = 'I added three tasks to your note.';

interface WireMessage {
  role: string;
  content?: string | null;
}

interface WireBody {
  model?: string;
  messages?: WireMessage[];
  tools?: Array<{ function?: { name?: string } }>;
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return JSON.stringify({
    id: 'chatcmpl-script',
    object: 'chat.completion.chunk',
    created: 1_719_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

function usage(model: string): string {
  return JSON.stringify({
    id: 'chatcmpl-script',
    object: 'chat.completion.chunk',
    created: 1_719_000_000,
    model,
    choices: [],
    usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
  });
}

/** The wire name the request gave an IR tool (`rag.search` → `rag__search`). */
function wireName(body: WireBody, irName: string): string {
  const wanted = irName.replace(/\./g, '__');
  const names = (body.tools ?? []).map((tool) => tool.function?.name ?? '');
  return names.find((name) => name === wanted || name.startsWith(wanted)) ?? wanted;
}

function toolCall(model: string, id: string, name: string, args: Record<string, unknown>): string[] {
  const json = JSON.stringify(args);
  const half = Math.ceil(json.length / 2);
  return [
    chunk(model, {
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }],
    }),
    chunk(model, { tool_calls: [{ index: 0, function: { arguments: json.slice(0, half) } }] }),
    chunk(model, { tool_calls: [{ index: 0, function: { arguments: json.slice(half) } }] }),
    chunk(model, {}, 'tool_calls'),
    usage(model),
    '[DONE]',
  ];
}

function text(model: string, answer: string): string[] {
  const parts = answer.match(/.{1,12}/gsu) ?? [answer];
  return [
    chunk(model, { role: 'assistant', content: '' }),
    ...parts.map((part) => chunk(model, { content: part })),
    chunk(model, {}, 'stop'),
    usage(model),
    '[DONE]',
  ];
}

/** The SSE `data:` payloads answering one chat-completions request. */
export function agentScriptReply(body: WireBody): string[] {
  const model = body.model ?? 'script-model';
  const messages = body.messages ?? [];
  const results = messages.filter((message) => message.role === 'tool').map((m) => m.content ?? '');
  const last = results.at(-1);
  const goal = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  if (last === undefined) {
    return toolCall(model, 'call_search', wireName(body, 'rag.search'), { query: goal.slice(0, 200), limit: 5 });
  }
  if (last.startsWith('Error:')) return text(model, 'I did not change the note.');
  if (results.length === 1) {
    const noteId = /note_id ([A-Za-z0-9_-]+)/.exec(last)?.[1];
    if (!noteId) return text(model, 'No note matches.');
    return toolCall(model, 'call_read', wireName(body, 'notes.read'), { note_id: noteId });
  }
  if (results.length === 2) {
    const noteId = /note_id ([A-Za-z0-9_-]+)/.exec(last)?.[1] ?? '';
    return toolCall(model, 'call_tasks', wireName(body, 'tasks.create'), {
      note_id: noteId,
      heading: 'Tasks',
      tasks: SCRIPT_TASKS,
    });
  }
  return text(model, SCRIPT_ANSWER);
}

/** The whole SSE body. */
export function agentScriptStream(body: WireBody): string {
  return agentScriptReply(body)
    .map((line) => `data: ${line}\n\n`)
    .join('');
}

/**
 * A one-note agent dataset the script can pass only by calling its tools: it
 * always writes its 3 tasks, so case `tasks-3` passes and `tasks-1` cannot.
 */
export function scriptedAgentDataset(
  dataset_id: string,
  description: string,
  { citationRequired = false }: { citationRequired?: boolean } = {},
): AgentDatasetFile {
  const tools = ['rag.search', 'notes.read', 'tasks.create'];
  return {
    dataset_id,
    kind: 'agent',
    version: '1.0.0',
    description,
    notes: [
      {
        note_id: 'n-deadlock',
        title: 'Deadlock',
        folder: '',
        tags: [],
        body: 'Four deadlock conditions: mutual exclusion, hold and wait, no preemption, circular wait.',
      },
    ],
    cases: [
      {
        case_id: 'tasks-3',
        prompt: 'deadlock review tasks',
        allowed_tools: [...tools],
        expected_tools: [...tools],
        expected_conditions: {
          ...(citationRequired && { citation_required: true }),
          tasks_created: 3,
          answer_contains: [SCRIPT_ANSWER],
        },
        tags: [],
      },
      {
        case_id: 'tasks-1',
        prompt: 'deadlock one task',
        allowed_tools: [...tools],
        expected_tools: [...tools],
        expected_conditions: { tasks_created: 1 },
        tags: [],
      },
    ],
  };
}
