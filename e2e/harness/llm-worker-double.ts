// Test-only stand-in for `src/workers/llm.worker.ts`: the same host
// (`WebLlmWorkerHost`) the product worker exposes, on web-llm's engine double
// instead of web-llm. Bundled on the fly by build-harness.ts and started by the
// Playwright spec in place of the product's LLM worker, so the product build
// never contains the double (the spec greps dist/ to prove it).
//
// The "model" plays a prompted-tools agent run on a model without native
// function calling: search → read → tasks.create → answer, each call as a
// `<tool_call>` in its text under the name the prompt offers (`rag__search`),
// the note id read from the results the agent sent
// back. Every request the engine receives is first POSTed to
// `/__engine-double/request` so the spec can check what reached the engine.
import * as Comlink from 'comlink';
import {
  FakeModelCache,
  WebLlmEngineDouble,
  textScript,
  type EngineScript,
} from '../../src/providers/webllm/__fixtures__/engine-double';
import type { WebLlmChatRequest } from '../../src/providers/webllm/engine-port';
import { WebLlmWorkerHost } from '../../src/providers/webllm/worker-host';
import { DOUBLE_ANSWER, DOUBLE_MODEL, DOUBLE_TASKS, REQUEST_LOG_PATH } from './llm-double-constants';

const RESULT = /^Result of (\S+) \(call [^)]*\):\n/;

function contentOf(message: WebLlmChatRequest['messages'][number]): string {
  return typeof message.content === 'string' ? message.content : '';
}

/** Splits a text into small deltas, the way a model streams, so the tolerant parser sees split tags. */
function pieces(text: string): string[] {
  return text.match(/.{1,9}/gsu) ?? [text];
}

function call(name: string, args: Record<string, unknown>): EngineScript {
  return textScript(
    DOUBLE_MODEL,
    pieces(`<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`),
  );
}

function agentScript(request: WebLlmChatRequest): EngineScript {
  const results = request.messages.map(contentOf).filter((content) => RESULT.test(content));
  const goal = contentOf(request.messages.find((message) => message.role === 'user') ?? request.messages[0]!);
  const last = results.at(-1);
  if (last === undefined) return call('rag__search', { query: goal.slice(0, 200), limit: 5 });
  const noteId = /note_id ([A-Za-z0-9_-]+)/.exec(last)?.[1];
  if (results.length === 1) {
    return noteId
      ? call('notes__read', { note_id: noteId })
      : textScript(DOUBLE_MODEL, pieces('No note matches.'));
  }
  if (results.length === 2) {
    return call('tasks__create', { note_id: noteId ?? '', heading: 'Tasks', tasks: DOUBLE_TASKS });
  }
  return textScript(DOUBLE_MODEL, pieces(DOUBLE_ANSWER));
}

const cache = new FakeModelCache();
// Downloaded already: the picker offers it and the host loads it without a download.
cache.seed(DOUBLE_MODEL, 1024 * 1024);
// No `functionCallingModelIds`: like web-llm, the double throws if `tools` reach it for this model.
const engine = new WebLlmEngineDouble({ cache, script: agentScript });
const create = engine.chat.completions.create;
engine.chat.completions.create = async (request) => {
  // Absolute: this worker runs from a blob: URL (see the spec).
  await fetch(new URL(REQUEST_LOG_PATH, self.location.origin), {
    method: 'POST',
    body: JSON.stringify(request),
  });
  return create(request);
};

Comlink.expose(new WebLlmWorkerHost({ cache, load: async () => ({ engine }) }));
