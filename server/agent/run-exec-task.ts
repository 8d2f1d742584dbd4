import { MetonaProviderError, type MetonaRequest } from '../../src/ir';
import type { ModelRegistry } from '../models/model-registry';
import { buildPrompt, type PromptExtras } from '../prompts/templates';
import {
  AgentErrorCode,
  errorText,
  modelNotFound,
  requestIdText,
  type AgentReply,
  type ExecCommand,
} from '../protocol';
import type { TaskOutcome } from '../tasks/task-queue';
import { gatherUnitTestContext } from './gather-unittest-context';
import type { IdeServices } from './ide-callback-client';

// One exec_* task: pick the model, gather IDE context where the command uses
// it, build the prompt, call the adapter and turn its stream into replies.

export interface ExecTaskContext {
  registry: ModelRegistry;
  /** The plugin's IDE services for this task; absent when the connection did not declare call-backs. */
  ide?: IdeServices;
  /** Replies go through here; the caller drops them once the task was cancelled. */
  reply: (reply: AgentReply) => void;
  sessionId: string;
  taskTimeoutMs: number;
  agentVersion: string;
  now?: () => number;
  /** Told what the unit-test flow got from the IDE (logs only). */
  onIdeContext?: (answered: number, failed: number) => void;
}

function toMetonaRequest(
  command: ExecCommand,
  context: ExecTaskContext,
  extras: PromptExtras,
): MetonaRequest {
  const now = (context.now ?? Date.now)();
  const prompt = buildPrompt(command, extras);
  return {
    meta: {
      sessionId: context.sessionId,
      iteration: 1,
      requestId: requestIdText(command.request_id),
      timestamp: now,
      agentVersion: context.agentVersion,
    },
    systemPrompt: prompt.system,
    messages: [{ role: 'user', content: prompt.user, timestamp: now }],
    params: { stream: true },
    // The adapters' own deadline: a model that hangs ends as a `network_timeout` error.
    constraints: { timeoutMs: context.taskTimeoutMs },
  };
}

/** Provider errors keep their IR code, so plugins see `rate_limited: …`, `model_not_found: …`. */
function failureText(error: unknown): string {
  if (error instanceof MetonaProviderError) return errorText(error.code, error.message);
  return AgentErrorCode.INTERNAL;
}

export async function runExecTask(
  command: ExecCommand,
  context: ExecTaskContext,
  signal: AbortSignal,
): Promise<TaskOutcome> {
  const requestId = command.request_id;
  const modelName = command.model ?? (await context.registry.defaultModel());
  const resolved = modelName ? context.registry.resolve(modelName) : undefined;
  if (!resolved) {
    context.reply({
      request_id: requestId,
      error: modelNotFound(modelName),
    });
    return 'failed';
  }

  try {
    const extras: PromptExtras = {};
    if (command.cmd === 'exec_unittest_code' && context.ide) {
      const gathered = await gatherUnitTestContext(command, context.ide, signal);
      context.onIdeContext?.(gathered.answered.length, gathered.failed.length);
      if (gathered.text) extras.ideContext = gathered.text;
    }
    let sequence = 0;
    const response = await resolved.adapter.sendStream(
      toMetonaRequest(command, context, extras),
      (event) => {
        if (!command.stream || event.type !== 'text_delta' || !event.delta) return;
        context.reply({
          request_id: requestId,
          msg: event.delta,
          stream_seq_id: sequence++,
          stream_finish: false,
        });
      },
      { signal },
    );
    context.reply(
      command.stream
        ? { request_id: requestId, msg: '', stream_seq_id: sequence, stream_finish: true }
        : { request_id: requestId, msg: response.content },
    );
    return 'completed';
  } catch (error) {
    // A cancelled task was already answered with "cancelled"; reply() drops this anyway.
    if (!signal.aborted) context.reply({ request_id: requestId, error: failureText(error) });
    return 'failed';
  }
}
