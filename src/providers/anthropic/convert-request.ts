import {
  MetonaProviderError,
  type MetonaMessage,
  type MetonaRequest,
  type MetonaThinkingEffort,
} from '../../ir';
import { capabilityMismatchError } from '../shared/errors';
import {
  assembleSystemPrompt,
  parseDataUri,
  thinkingRequested,
  toolResultText,
  toolsForRequest,
} from '../shared/messages';
import { createToolNameCodec, type ToolNameCodec } from '../shared/tool-names';
import type { ThinkingSignatures } from './thinking-signatures';
import type { AnthropicMessage, AnthropicRequest, AnthropicRequestBlock } from './wire-schemas';

/** The standard's Anthropic-style row: low 1024, medium 2048, high 4096, max 8192 thinking tokens. */
export const THINKING_BUDGET: Record<MetonaThinkingEffort, number> = {
  low: 1024,
  medium: 2048,
  high: 4096,
  max: 8192,
};

/** `max_tokens` is required by the Messages API. */
export const DEFAULT_MAX_TOKENS = 4096;

/** IR request to the Messages API body (streaming). */
export function toAnthropicRequest(
  request: MetonaRequest,
  model: string,
  signatures: ThinkingSignatures,
  codec: ToolNameCodec = createToolNameCodec(request.tools ?? []),
  providerId = 'anthropic',
): AnthropicRequest {
  const { params, constraints } = request;
  const format = params.responseFormat;
  // The Messages API constrains output only to a schema; "any JSON object" has no form there.
  if (format?.type === 'json_object') {
    throw new MetonaProviderError(
      capabilityMismatchError(
        providerId,
        'Anthropic models answer in JSON only against a JSON schema; "json_object" without one cannot be sent.',
      ),
    );
  }
  const answerTokens = params.maxTokens ?? DEFAULT_MAX_TOKENS;
  const budget = thinkingBudget(request, signatures);
  const tools = toolsForRequest(request);
  const system = [
    assembleSystemPrompt(request.systemPrompt),
    ...request.messages.filter((m) => m.role === 'system').map((m) => m.content.trim()),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  return {
    model,
    // Anthropic counts thinking inside max_tokens; the IR's maxTokens is the answer's share.
    max_tokens: budget === undefined ? answerTokens : budget + answerTokens,
    ...(system !== '' && { system }),
    messages: toAnthropicMessages(request, signatures, budget !== undefined, codec),
    stream: true,
    // Thinking does not allow changing temperature or top_p.
    ...(budget === undefined && params.temperature !== undefined && { temperature: params.temperature }),
    ...(budget === undefined && params.topP !== undefined && { top_p: params.topP }),
    ...(params.stopSequences?.length && { stop_sequences: params.stopSequences }),
    ...(tools.length > 0 && {
      tools: tools.map((tool) => ({
        name: codec.toWire(tool.name),
        description: tool.description,
        input_schema: tool.parameters,
      })),
      tool_choice:
        constraints?.maxToolCalls === 0
          ? { type: 'none' as const }
          : {
              type: 'auto' as const,
              ...(constraints?.maxToolCalls === 1 && { disable_parallel_tool_use: true }),
            },
    }),
    ...(budget !== undefined && { thinking: { type: 'enabled' as const, budget_tokens: budget } }),
    ...(format?.type === 'json_schema' && {
      output_config: { format: { type: 'json_schema' as const, schema: format.schema } },
    }),
  };
}

/**
 * The thinking budget, or undefined for no thinking. A tool-use round whose
 * thinking signature we do not have cannot continue with thinking on (the API
 * demands the signed block), so that round goes without.
 */
function thinkingBudget(request: MetonaRequest, signatures: ThinkingSignatures): number | undefined {
  if (!thinkingRequested(request.params)) return undefined;
  const lastAssistant = request.messages.findLast((message) => message.role === 'assistant');
  const inToolLoop =
    lastAssistant?.toolCalls?.length && request.messages.at(-1)?.role === 'tool' ? lastAssistant : undefined;
  if (inToolLoop && !signatures.signatureFor(inToolLoop.reasoningContent)) return undefined;
  return THINKING_BUDGET[request.params.thinkingEffort ?? 'medium'];
}

function toAnthropicMessages(
  request: MetonaRequest,
  signatures: ThinkingSignatures,
  thinking: boolean,
  codec: ToolNameCodec,
): AnthropicMessage[] {
  const messages: AnthropicMessage[] = [];
  for (const message of request.messages) {
    const converted = toAnthropicMessage(message, signatures, thinking, codec);
    if (!converted || converted.content.length === 0) continue;
    // Consecutive turns of one role become one message: all tool results of a round must share it.
    const previous = messages.at(-1);
    if (previous?.role === converted.role) previous.content.push(...converted.content);
    else messages.push(converted);
  }
  return messages;
}

function toAnthropicMessage(
  message: MetonaMessage,
  signatures: ThinkingSignatures,
  thinking: boolean,
  codec: ToolNameCodec,
): AnthropicMessage | undefined {
  switch (message.role) {
    case 'system':
      return undefined; // joined into `system`
    case 'user': {
      const images: AnthropicRequestBlock[] = (message.images ?? []).map((image) => {
        const inline = parseDataUri(image.url);
        return {
          type: 'image',
          source: inline
            ? { type: 'base64', media_type: inline.mediaType, data: inline.base64 }
            : { type: 'url', url: image.url },
        };
      });
      const text: AnthropicRequestBlock[] =
        message.content !== '' ? [{ type: 'text', text: message.content }] : [];
      return { role: 'user', content: [...images, ...text] };
    }
    case 'assistant': {
      const blocks: AnthropicRequestBlock[] = [];
      const signature = signatures.signatureFor(message.reasoningContent);
      if (thinking && signature && message.reasoningContent) {
        blocks.push({ type: 'thinking', thinking: message.reasoningContent, signature });
      }
      if (message.content !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: codec.toWire(call.name), input: call.args });
      }
      return { role: 'assistant', content: blocks };
    }
    case 'tool':
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: message.toolResult?.toolCallId ?? '',
            content: toolResultText(message),
            ...(message.toolResult?.success === false && { is_error: true }),
          },
        ],
      };
    default: {
      const unhandled: never = message.role;
      return unhandled;
    }
  }
}
