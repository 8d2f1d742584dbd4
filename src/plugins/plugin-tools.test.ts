import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../agent/tool-registry';
import { compileSchema } from './json-schema';
import { toAgentToolSpec } from './plugin-tools';
import type { PluginTool } from './tool-definitions';

function tool(extra: Partial<PluginTool> = {}): PluginTool {
  const input_schema = { type: 'object', properties: {} };
  return {
    name: 'anna-slow90.fetch',
    plugin_id: 'anna-slow90',
    tool_name: 'fetch',
    description: 'Fetches slowly.',
    permission: null,
    input_schema,
    compiled: compileSchema(input_schema),
    ...extra,
  };
}

const never = () => new Promise<never>(() => {});

describe('toAgentToolSpec', () => {
  // The agent waits 2 s past the host's limit, so the host's own timeout error arrives first.
  it("gives the agent the manifest's tool_timeout_seconds, not a fixed 30 s", () => {
    expect(toAgentToolSpec(tool({ timeout_ms: 90_000 }), never).timeoutMs).toBe(92_000);
  });

  it('falls back to the default when the host did not say', () => {
    expect(toAgentToolSpec(tool(), never).timeoutMs).toBe(DEFAULT_TOOL_TIMEOUT_MS + 2_000);
  });
});
