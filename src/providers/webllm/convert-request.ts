import { MetonaProviderError, type MetonaRequest, type MetonaToolDef } from '../../ir';
import { capabilityMismatchError } from '../shared/errors';
import { toOpenAIRequest } from '../openai-compatible/convert-request';
import type { OpenAICompatiblePreset } from '../openai-compatible/presets';
import type { OpenAIMessage } from '../openai-compatible/wire-schemas';
import { thinkingRequested, toolsForRequest } from '../shared/messages';
import { createToolNameCodec, type ToolNameCodec } from '../shared/tool-names';
import type { WebLlmChatRequest, WebLlmMessage } from './engine-port';
import {
  WEBLLM_PROVIDER_ID,
  type ToolCallingMode,
  type WebLlmCatalogEntry,
} from '../../models/model-catalog';
import { describeToolsForPrompt, renderPromptedToolCall } from './prompted-tools';

/**
 * IR request to web-llm's OpenAI-style request. The OpenAI-compatible
 * conversion does the common part (system prompt assembly, sampling fields,
 * tool definitions, usage in the stream); web-llm's own rules are applied on
 * top of it:
 * - one system message, first (it throws on any other): later system
 *   messages become user notes;
 * - assistant content must be a string, and earlier tool calls are written
 *   into it in the format the model itself produces;
 * - only text: images become a note (no catalog model is a vision model);
 * - native tools (Hermes): web-llm writes its own system prompt and refuses a
 *   caller's, so ours goes in front of the first user message;
 * - prompted tools: described in the system prompt, results come back as user
 *   messages (chat templates without a tool role cannot render them).
 */

/** How one request treats tools. */
export type RequestToolMode = ToolCallingMode | 'none';

export interface WebLlmRequestPlan {
  request: WebLlmChatRequest;
  toolMode: RequestToolMode;
  /** Tool names the prompted-tools parser accepts from bare JSON (wire names, and the IR names). */
  toolNames: string[];
  /** Maps the wire tool names of this request back to IR names. */
  toolNameCodec: ToolNameCodec;
}

/** The OpenAI-compatible conversion's knobs, set the way web-llm reads the request. */
const WEBLLM_WIRE: OpenAICompatiblePreset = {
  id: WEBLLM_PROVIDER_ID,
  displayName: 'WebLLM (in-browser)',
  baseUrl: '',
  thinking: 'none', // web-llm's switch is extra_body.enable_thinking, set below
  reasoningPassback: 'never',
  maxTokensField: 'max_tokens',
  parallelToolCalls: false,
  models: {},
};

export interface ConvertOptions {
  modelId: string;
  entry?: WebLlmCatalogEntry;
  /** `auto` follows the catalog (native where web-llm supports it). */
  toolMode?: 'auto' | ToolCallingMode;
}

function chooseToolMode(request: MetonaRequest, options: ConvertOptions): RequestToolMode {
  if (toolsForRequest(request).length === 0 || request.constraints?.maxToolCalls === 0) return 'none';
  if (options.toolMode === 'native' || options.toolMode === 'prompted') return options.toolMode;
  return options.entry?.toolCalling ?? 'prompted';
}

export function toWebLlmRequest(request: MetonaRequest, options: ConvertOptions): WebLlmRequestPlan {
  const toolMode = chooseToolMode(request, options);
  const codec = createToolNameCodec(request.tools ?? []);
  const tools = (toolMode === 'none' ? [] : toolsForRequest(request)).map((tool) => ({
    ...tool,
    name: codec.toWire(tool.name),
  }));
  // Only native mode sends `tools`; the conversion below sees none otherwise.
  const base = toOpenAIRequest(
    toolMode === 'native' ? request : { ...request, tools: [] },
    WEBLLM_WIRE,
    options.modelId,
    codec,
  );
  const messages = toWebLlmMessages(base.messages, toolMode, tools);
  // A JSON grammar leaves no room for a `<think>` block: the model answers in its non-thinking mode.
  const thinking = options.entry?.thinking
    ? request.params.responseFormat === undefined && thinkingRequested(request.params)
    : undefined;
  const webllm: WebLlmChatRequest = {
    model: options.modelId,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(base.max_tokens !== undefined && { max_tokens: base.max_tokens }),
    ...(base.temperature !== undefined && { temperature: base.temperature }),
    ...(base.top_p !== undefined && { top_p: base.top_p }),
    ...(base.stop !== undefined && { stop: base.stop }),
    ...(toolMode === 'native' && base.tools && { tools: base.tools }),
    ...(thinking !== undefined && { extra_body: { enable_thinking: thinking } }),
    ...webLlmResponseFormat(request, toolMode, options.entry),
  };
  const toolNames = [...new Set(tools.flatMap((tool) => [tool.name, codec.fromWire(tool.name)]))];
  return { request: webllm, toolMode, toolNames, toolNameCodec: codec };
}

/**
 * web-llm constrains output with a grammar: `json_object`, with the schema as
 * a string when there is one. Tool calls (native Hermes or prompted) need the
 * model's own call syntax, which that grammar would forbid, so both together
 * are refused rather than one silently dropped.
 */
function webLlmResponseFormat(
  request: MetonaRequest,
  toolMode: RequestToolMode,
  entry: WebLlmCatalogEntry | undefined,
): Pick<WebLlmChatRequest, 'response_format'> {
  const format = request.params.responseFormat;
  if (format === undefined) return {};
  // The catalog's `structured_output` capability; a model it does not know is left to web-llm.
  if (entry && !entry.structuredOutput) {
    throw new MetonaProviderError(
      capabilityMismatchError(
        WEBLLM_PROVIDER_ID,
        `${entry.displayName} cannot be held to a JSON answer; choose another model for this.`,
      ),
    );
  }
  if (toolMode !== 'none') {
    throw new MetonaProviderError(
      capabilityMismatchError(
        WEBLLM_PROVIDER_ID,
        'A local model cannot answer in a fixed JSON format and call tools in the same request.',
      ),
    );
  }
  return {
    response_format: {
      type: 'json_object',
      ...(format.type === 'json_schema' && { schema: JSON.stringify(format.schema) }),
    },
  };
}

function flattenUserContent(content: Extract<OpenAIMessage, { role: 'user' }>['content']): string {
  if (typeof content === 'string') return content;
  const text = content
    .filter((part): part is Extract<typeof part, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const images = content.length - content.filter((part) => part.type === 'text').length;
  const note = images > 0 ? `[${images} image(s) left out: this local model cannot see images]` : '';
  return [text, note].filter(Boolean).join('\n\n');
}

function renderToolCalls(
  calls: NonNullable<Extract<OpenAIMessage, { role: 'assistant' }>['tool_calls']>,
  toolMode: RequestToolMode,
): string {
  const parsed = calls.map((call) => {
    let args: Record<string, unknown> = {};
    try {
      args = JSON.parse(call.function.arguments) as Record<string, unknown>;
    } catch {
      // keep {}: the IR guarantees object arguments, this only guards hand-made history
    }
    return { name: call.function.name, args };
  });
  // Hermes answers tool rounds with a JSON list of {name, arguments} (web-llm's schema).
  if (toolMode === 'native') {
    return JSON.stringify(parsed.map((call) => ({ name: call.name, arguments: call.args })));
  }
  return parsed.map(renderPromptedToolCall).join('\n');
}

function toWebLlmMessages(
  messages: OpenAIMessage[],
  toolMode: RequestToolMode,
  tools: readonly MetonaToolDef[],
): WebLlmMessage[] {
  const systemParts: string[] = [];
  const out: WebLlmMessage[] = [];
  const toolNames = new Map<string, string>();
  let resultsMessage: { role: 'user'; content: string } | undefined;

  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (out.length === 0) systemParts.push(message.content);
        else out.push({ role: 'user', content: `[System note] ${message.content}` });
        break;
      case 'user':
        out.push({ role: 'user', content: flattenUserContent(message.content) });
        break;
      case 'assistant': {
        const calls = message.tool_calls ?? [];
        for (const call of calls) toolNames.set(call.id, call.function.name);
        const content = [message.content ?? '', calls.length ? renderToolCalls(calls, toolMode) : '']
          .filter((part) => part !== '')
          .join('\n');
        out.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        if (toolMode === 'native') {
          out.push({ role: 'tool', tool_call_id: message.tool_call_id, content: message.content });
          break;
        }
        const name = toolNames.get(message.tool_call_id) ?? 'tool';
        const block = `Result of ${name} (call ${message.tool_call_id}):\n${message.content}`;
        // Several results of one round go back as one user message.
        const previous = out.at(-1);
        if (previous && previous === resultsMessage) {
          resultsMessage.content = `${resultsMessage.content}\n\n${block}`;
        } else {
          resultsMessage = { role: 'user', content: block };
          out.push(resultsMessage);
        }
        break;
      }
      default: {
        const unhandled: never = message;
        throw new Error(`Unknown message ${JSON.stringify(unhandled)}`);
      }
    }
  }

  if (toolMode === 'prompted') systemParts.push(describeToolsForPrompt(tools));
  const system = systemParts.filter((part) => part.trim() !== '').join('\n\n');
  if (system === '') return out;
  if (toolMode === 'native') {
    const firstUser = out.find((message) => message.role === 'user');
    if (firstUser && typeof firstUser.content === 'string') {
      firstUser.content = `${system}\n\n${firstUser.content}`;
      return out;
    }
    return [{ role: 'user', content: system }, ...out];
  }
  return [{ role: 'system', content: system }, ...out];
}
