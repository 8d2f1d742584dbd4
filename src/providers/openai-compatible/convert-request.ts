import { MetonaProviderError, type MetonaMessage, type MetonaRequest } from '../../ir';
import { capabilityMismatchError } from '../shared/errors';
import { assembleSystemPrompt, thinkingRequested, toolResultText, toolsForRequest } from '../shared/messages';
import { createToolNameCodec, type ToolNameCodec } from '../shared/tool-names';
import type { OpenAICompatiblePreset } from './presets';
import type { OpenAIChatRequest, OpenAIContentPart, OpenAIMessage } from './wire-schemas';

/** IR request to the Chat Completions body, streaming with usage. */
export function toOpenAIRequest(
  request: MetonaRequest,
  preset: OpenAICompatiblePreset,
  model: string,
  codec: ToolNameCodec = createToolNameCodec(request.tools ?? []),
): OpenAIChatRequest {
  const { params, constraints } = request;
  const tools = toolsForRequest(request);
  const body: OpenAIChatRequest = {
    model,
    messages: toOpenAIMessages(request, preset, codec),
    stream: true,
    stream_options: { include_usage: true },
    ...(params.maxTokens !== undefined && { [preset.maxTokensField]: params.maxTokens }),
    ...(params.temperature !== undefined && { temperature: params.temperature }),
    ...(params.topP !== undefined && { top_p: params.topP }),
    ...(params.stopSequences?.length && { stop: params.stopSequences }),
    ...thinkingFields(request, preset),
    ...responseFormatField(request, preset),
  };
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      function: { name: codec.toWire(tool.name), description: tool.description, parameters: tool.parameters },
    }));
    // The IR has no tool_choice: "no calls allowed this round" is maxToolCalls 0.
    body.tool_choice = constraints?.maxToolCalls === 0 ? 'none' : 'auto';
    if (preset.parallelToolCalls && constraints?.maxToolCalls === 1) body.parallel_tool_calls = false;
  }
  return body;
}

/** `responseFormat` as `response_format`; a type the preset's API lacks is refused, not dropped. */
function responseFormatField(
  request: MetonaRequest,
  preset: OpenAICompatiblePreset,
): Partial<OpenAIChatRequest> {
  const format = request.params.responseFormat;
  if (format === undefined) return {};
  if (preset.responseFormats && !preset.responseFormats.includes(format.type)) {
    const accepted = preset.responseFormats.join(', ') || 'none';
    throw new MetonaProviderError(
      capabilityMismatchError(
        preset.id,
        `${preset.displayName} cannot answer in the response format "${format.type}" (it accepts: ${accepted}).`,
      ),
    );
  }
  if (format.type === 'json_object') return { response_format: { type: 'json_object' } };
  return {
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: format.name,
        ...(format.description !== undefined && { description: format.description }),
        schema: format.schema,
        ...(format.strict !== undefined && { strict: format.strict }),
      },
    },
  };
}

/** The standard's thinking table, per preset. */
function thinkingFields(request: MetonaRequest, preset: OpenAICompatiblePreset): Partial<OpenAIChatRequest> {
  const enabled = thinkingRequested(request.params);
  const effort = request.params.thinkingEffort;
  if (enabled === undefined) return {};
  switch (preset.thinking) {
    case 'deepseek':
      // low/medium/high → "high", max → "max".
      if (!enabled) return { thinking: { type: 'disabled' } };
      return {
        thinking: { type: 'enabled' },
        ...(effort !== undefined && { reasoning_effort: effort === 'max' ? 'max' : 'high' }),
      };
    case 'chat-template-kwargs':
      // low → false, medium/high/max → true.
      return { chat_template_kwargs: { enable_thinking: enabled && effort !== 'low' } };
    case 'reasoning-effort':
      // Not in the standard's table: OpenAI's own scale, "max" capped to "high".
      if (!enabled || effort === undefined) return {};
      return { reasoning_effort: effort === 'max' ? 'high' : effort };
    case 'none':
      return {};
    default: {
      const unhandled: never = preset.thinking;
      return unhandled;
    }
  }
}

export function toOpenAIMessages(
  request: MetonaRequest,
  preset: OpenAICompatiblePreset,
  codec: ToolNameCodec = createToolNameCodec(request.tools ?? []),
): OpenAIMessage[] {
  const messages: OpenAIMessage[] = [];
  const system = assembleSystemPrompt(request.systemPrompt);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of request.messages) messages.push(toOpenAIMessage(message, preset, codec));
  return messages;
}

function toOpenAIMessage(
  message: MetonaMessage,
  preset: OpenAICompatiblePreset,
  codec: ToolNameCodec,
): OpenAIMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: userContent(message) };
    case 'assistant': {
      const toolCalls = message.toolCalls ?? [];
      const passBack =
        preset.reasoningPassback === 'tool-call-rounds' && toolCalls.length > 0 && message.reasoningContent;
      return {
        role: 'assistant',
        content: message.content === '' && toolCalls.length > 0 ? null : message.content,
        ...(toolCalls.length > 0 && {
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: codec.toWire(call.name), arguments: JSON.stringify(call.args) },
          })),
        }),
        ...(passBack && { reasoning_content: message.reasoningContent }),
      };
    }
    case 'tool':
      return {
        role: 'tool',
        tool_call_id: message.toolResult?.toolCallId ?? '',
        content: toolResultText(message),
      };
    default: {
      const unhandled: never = message.role;
      return unhandled;
    }
  }
}

/** Text alone stays a string; with images it becomes the content array (text first). */
function userContent(message: MetonaMessage): string | OpenAIContentPart[] {
  const images = message.images ?? [];
  if (images.length === 0) return message.content;
  return [
    ...(message.content !== '' ? [{ type: 'text' as const, text: message.content }] : []),
    ...images.map((image) => ({
      type: 'image_url' as const,
      image_url: { url: image.url, ...(image.detail && { detail: image.detail }) },
    })),
  ];
}
