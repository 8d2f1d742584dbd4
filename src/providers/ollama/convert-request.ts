import {
  MetonaProviderError,
  type MetonaImageContent,
  type MetonaMessage,
  type MetonaRequest,
} from '../../ir';
import { toMetonaError } from '../shared/errors';
import type { FetchFunction } from '../shared/http';
import {
  assembleSystemPrompt,
  bytesToBase64,
  parseDataUri,
  thinkingRequested,
  toolResultText,
  toolsForRequest,
} from '../shared/messages';
import { createToolNameCodec, type ToolNameCodec } from '../shared/tool-names';
import type { OllamaChatRequest, OllamaMessage, OllamaThink } from './wire-schemas';

export interface OllamaRequestContext {
  model: string;
  /** Sent as `options.num_ctx` when set; Ollama's own default is small. */
  contextWindow?: number;
  /** Downloads images given by URL: Ollama only takes base64. */
  fetch: FetchFunction;
  signal?: AbortSignal;
  /** Wire tool names; defaults to a codec over the request's tools. */
  toolNames?: ToolNameCodec;
}

/** IR request to the /api/chat body. Async: image URLs are fetched and inlined. */
export async function toOllamaRequest(
  request: MetonaRequest,
  context: OllamaRequestContext,
): Promise<OllamaChatRequest> {
  const { params } = request;
  const tools = toolsForRequest(request);
  const codec = context.toolNames ?? createToolNameCodec(request.tools ?? []);
  const think = toOllamaThink(request);
  const options = {
    ...(params.temperature !== undefined && { temperature: params.temperature }),
    ...(params.topP !== undefined && { top_p: params.topP }),
    ...(params.maxTokens !== undefined && { num_predict: params.maxTokens }),
    ...(context.contextWindow !== undefined && { num_ctx: context.contextWindow }),
    ...(params.stopSequences?.length && { stop: params.stopSequences }),
  };
  return {
    model: context.model,
    messages: await toOllamaMessages(request, { ...context, toolNames: codec }),
    stream: true,
    ...(think !== undefined && { think }),
    ...(params.responseFormat && {
      format: params.responseFormat.type === 'json_schema' ? params.responseFormat.schema : ('json' as const),
    }),
    ...(tools.length > 0 && {
      tools: tools.map((tool) => ({
        type: 'function' as const,
        function: {
          name: codec.toWire(tool.name),
          description: tool.description,
          parameters: tool.parameters,
        },
      })),
    }),
    ...(Object.keys(options).length > 0 && { options }),
  };
}

/** The standard's table: low → "low", medium → "medium", high → "high", max → true. */
export function toOllamaThink(request: MetonaRequest): OllamaThink | undefined {
  const enabled = thinkingRequested(request.params);
  if (enabled === undefined) return undefined;
  if (!enabled) return false;
  const effort = request.params.thinkingEffort;
  if (effort === undefined || effort === 'max') return true;
  return effort;
}

async function toOllamaMessages(
  request: MetonaRequest,
  context: OllamaRequestContext,
): Promise<OllamaMessage[]> {
  const messages: OllamaMessage[] = [];
  const system = assembleSystemPrompt(request.systemPrompt);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of request.messages) messages.push(await toOllamaMessage(message, context));
  return messages;
}

async function toOllamaMessage(
  message: MetonaMessage,
  context: OllamaRequestContext,
): Promise<OllamaMessage> {
  const wire = (name: string) => context.toolNames?.toWire(name) ?? name;
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user': {
      const images = message.images ?? [];
      if (images.length === 0) return { role: 'user', content: message.content };
      return {
        role: 'user',
        content: message.content,
        images: await Promise.all(images.map((image) => imageToBase64(image, context))),
      };
    }
    case 'assistant': {
      // message.thinking is not sent back: the standard does not require it for Ollama.
      const toolCalls = message.toolCalls ?? [];
      return {
        role: 'assistant',
        content: message.content,
        ...(toolCalls.length > 0 && {
          tool_calls: toolCalls.map((call) => ({
            function: { name: wire(call.name), arguments: call.args },
          })),
        }),
      };
    }
    case 'tool':
      return {
        role: 'tool',
        content: toolResultText(message),
        ...(message.toolResult && { tool_name: wire(message.toolResult.toolName) }),
      };
    default: {
      const unhandled: never = message.role;
      return unhandled;
    }
  }
}

/** A data URI loses its prefix; any other URL (https:, blob:) is downloaded. */
async function imageToBase64(image: MetonaImageContent, context: OllamaRequestContext): Promise<string> {
  const inline = parseDataUri(image.url);
  if (inline) return inline.base64;
  let response: Response;
  try {
    response = await context.fetch(image.url, { signal: context.signal });
  } catch (error) {
    throw new MetonaProviderError(
      toMetonaError(error, 'ollama', { signal: context.signal, url: image.url }),
      {
        cause: error,
      },
    );
  }
  if (!response.ok) {
    throw new MetonaProviderError({
      code: 'invalid_response',
      message: `Could not download an image for the model (HTTP ${response.status}).`,
      provider: 'ollama',
      retryable: false,
    });
  }
  return bytesToBase64(new Uint8Array(await response.arrayBuffer()));
}
