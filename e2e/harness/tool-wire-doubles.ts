import { sendJson, startWireServer, type RecordedRequest, type WireServer } from './wire-server';

/**
 * Scripted tool-calling doubles of Anthropic's and Ollama's own wires, for
 * agent runs through the UI: each chat request is answered by `reply`, which
 * sees the request (its tools, the tool results sent back so far) and returns
 * the step to stream. A step's tool call carries its arguments as raw text, so
 * a test can send JSON that does not parse, as a model sometimes does.
 */
export type WireStep = { text: string } | { tool: string; rawArguments: string };

export interface ToolWireOptions {
  reply: (request: RecordedRequest) => WireStep;
}

const sse = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The tool names a request offered, as the wire spells them. */
export function offeredTools(request: RecordedRequest): string[] {
  const tools = (request.body?.tools ?? []) as Array<{ name?: string; function?: { name?: string } }>;
  return tools.map((tool) => tool.name ?? tool.function?.name ?? '');
}

/** The tool results sent back to the model so far (Anthropic `tool_result` blocks, Ollama `tool` messages). */
export function toolResultsSent(request: RecordedRequest): string[] {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content?: unknown }>;
  const results: string[] = [];
  for (const message of messages) {
    if (message.role === 'tool') results.push(String(message.content ?? ''));
    if (message.role === 'user' && Array.isArray(message.content)) {
      for (const block of message.content as Array<{ type?: string; content?: unknown }>) {
        if (block.type !== 'tool_result') continue;
        const content = block.content;
        results.push(
          typeof content === 'string'
            ? content
            : Array.isArray(content)
              ? (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('')
              : '',
        );
      }
    }
  }
  return results;
}

/** Anthropic Messages on 127.0.0.1 (any key): `/v1/models` and streamed `/v1/messages`. */
export function startAnthropicToolWire(options: ToolWireOptions): Promise<WireServer> {
  const model = { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5' };
  return startWireServer({ cors: true }, (request, res, headers) => {
    if (request.method === 'GET' && request.path === '/v1/models') {
      return sendJson(res, 200, headers, {
        data: [{ type: 'model', created_at: '2025-09-29T00:00:00Z', ...model }],
        has_more: false,
        first_id: model.id,
        last_id: model.id,
      });
    }
    if (request.method !== 'POST' || request.path !== '/v1/messages') {
      return sendJson(res, 404, headers, {
        type: 'error',
        error: { type: 'not_found_error', message: 'Not found' },
      });
    }
    const step = options.reply(request);
    res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8' });
    res.write(
      sse('message_start', {
        message: {
          id: 'msg_tool_wire',
          type: 'message',
          role: 'assistant',
          content: [],
          model: model.id,
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      }),
    );
    if ('text' in step) {
      res.write(sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
      res.write(sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text } }));
    } else {
      res.write(
        sse('content_block_start', {
          index: 0,
          content_block: {
            type: 'tool_use',
            id: `toolu_${request.body?.messages ? (request.body.messages as unknown[]).length : 0}`,
            name: step.tool,
            input: {},
          },
        }),
      );
      res.write(
        sse('content_block_delta', {
          index: 0,
          delta: { type: 'input_json_delta', partial_json: step.rawArguments },
        }),
      );
    }
    res.write(sse('content_block_stop', { index: 0 }));
    res.write(
      sse('message_delta', {
        delta: { stop_reason: 'text' in step ? 'end_turn' : 'tool_use', stop_sequence: null },
        usage: { output_tokens: 8 },
      }),
    );
    res.end(sse('message_stop', {}));
  });
}

/** Ollama's native API on 127.0.0.1 with one tool-calling model, `qwen3:8b`; `/api/chat` streams NDJSON. */
export function startOllamaToolWire(options: ToolWireOptions): Promise<WireServer> {
  const name = 'qwen3:8b';
  return startWireServer({ cors: true }, (request, res, headers) => {
    const { method, path } = request;
    if (method === 'GET' && path === '/api/version')
      return sendJson(res, 200, headers, { version: '0.12.6' });
    if (method === 'GET' && path === '/api/tags') {
      return sendJson(res, 200, headers, {
        models: [
          {
            name,
            model: name,
            modified_at: '2026-11-03T23:34:03.409490317-07:00',
            size: 5_225_388_164,
            digest: '500a1f067a9f782620b40bee6f7b0c89e17ae61f686b92c24933e4ca4b2b8b41',
            details: {
              format: 'gguf',
              family: 'qwen3',
              parameter_size: '8.2B',
              quantization_level: 'Q4_K_M',
            },
          },
        ],
      });
    }
    if (method === 'POST' && path === '/api/show') {
      return sendJson(res, 200, headers, {
        details: { family: 'qwen3', parameter_size: '8.2B' },
        model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960 },
        capabilities: ['completion', 'tools'],
      });
    }
    if (method !== 'POST' || path !== '/api/chat') {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('404 page not found');
      return;
    }
    const step = options.reply(request);
    const created = '2026-12-06T00:00:00.000000Z';
    const message =
      'text' in step
        ? { role: 'assistant', content: step.text }
        : {
            role: 'assistant',
            content: '',
            tool_calls: [{ function: { name: step.tool, arguments: step.rawArguments } }],
          };
    res.writeHead(200, { ...headers, 'Content-Type': 'application/x-ndjson' });
    res.write(`${JSON.stringify({ model: name, created_at: created, message, done: false })}\n`);
    res.end(
      `${JSON.stringify({
        model: name,
        created_at: created,
        message: { role: 'assistant', content: '' },
        done_reason: 'stop',
        done: true,
        total_duration: 1_200_000_000,
        prompt_eval_count: 20,
        eval_count: 8,
      })}\n`,
    );
  });
}
