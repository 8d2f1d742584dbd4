import { describe, expect, it } from 'vitest';
import { MockAdapter } from '../../src/providers/mock';
import { ModelRegistry, type LocalEngine } from '../models/model-registry';
import { parseFrame, type AgentReply, type ExecCommand } from '../protocol';
import { runExecTask } from './run-exec-task';

function ollama(models: string[]): LocalEngine {
  return { listModels: async () => models, adapterFor: () => new MockAdapter() };
}

/** exec_unittest_code as §2.7 has it: no `model` field. */
function unitTestCode(): ExecCommand {
  const parsed = parseFrame(
    JSON.stringify({ cmd: 'exec_unittest_code', request_id: 3, test_cases_str: '1. f returns None' }),
  );
  if (parsed.kind !== 'command' || parsed.command.cmd === 'list_model') throw new Error('not a command');
  return parsed.command;
}

async function run(registry: ModelRegistry): Promise<AgentReply[]> {
  const replies: AgentReply[] = [];
  await runExecTask(
    unitTestCode(),
    {
      registry,
      reply: (reply) => void replies.push(reply),
      sessionId: 's',
      taskTimeoutMs: 10_000,
      agentVersion: 'test',
    },
    new AbortController().signal,
  );
  return replies;
}

describe('a command without a model', () => {
  it('runs on the first model list_model shows when only Ollama is there', async () => {
    expect(await run(new ModelRegistry({ local: ollama(['qwen-test:1b']) }))).toEqual([
      { request_id: 3, msg: expect.any(String) },
    ]);
  });

  it('with no model anywhere, fails saying how to configure one', async () => {
    const [reply] = await run(new ModelRegistry({ local: ollama([]) }));
    expect(reply).toEqual({ request_id: 3, error: expect.stringMatching(/^model_not_found: /) });
    expect((reply as { error: string }).error).toContain('defaultModel');
  });
});
