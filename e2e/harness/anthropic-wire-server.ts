import { pieces, sendJson, startWireServer, type WireServer } from './wire-server';

export interface AnthropicWireOptions {
  /** The key the double accepts in `x-api-key`; any other gets 401 authentication_error. */
  apiKey: string;
  /** The dated ids `/v1/models` lists. */
  models?: Array<{ id: string; display_name: string }>;
  /** The answer each message streams. */
  answer?: string;
}

/**
 * The Anthropic Messages API on 127.0.0.1, with the CORS headers api.anthropic.com
 * sends to pages that set `anthropic-dangerous-direct-browser-access`:
 * `/v1/models` (dated ids) and `/v1/messages` streaming SSE (`event:` and
 * `data:` lines: message_start, content_block_start, ping, content_block_delta
 * text_delta…, content_block_stop, message_delta with stop_reason and usage,
 * message_stop). Like the API it answers an alias (`claude-sonnet-4-5`) with the
 * dated model it names, and refuses a missing or wrong key or a missing
 * `anthropic-version` as the API does.
 */
export function startAnthropicWireServer(options: AnthropicWireOptions): Promise<WireServer> {
  const models = options.models ?? [
    { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5' },
    { id: 'claude-haiku-4-5-20251001', display_name: 'Claude Haiku 4.5' },
  ];
  const answer = options.answer ?? 'Hello from Claude.';
  const error = (type: string, message: string) => ({ type: 'error', error: { type, message } });
  return startWireServer({ cors: true }, (request, res, headers) => {
    const { method, path, body } = request;
    if (!request.headers['anthropic-version']) {
      return sendJson(
        res,
        400,
        headers,
        error('invalid_request_error', 'anthropic-version: header is required'),
      );
    }
    if (request.headers['x-api-key'] !== options.apiKey) {
      return sendJson(res, 401, headers, error('authentication_error', 'invalid x-api-key'));
    }
    if (method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, headers, {
        data: models.map((model) => ({ type: 'model', created_at: '2025-09-29T00:00:00Z', ...model })),
        has_more: false,
        first_id: models[0]?.id ?? null,
        last_id: models.at(-1)?.id ?? null,
      });
    }
    if (method === 'POST' && path === '/v1/messages') {
      const asked = String(body?.model);
      const model = models.find((entry) => entry.id === asked || entry.id.replace(/-\d{8}$/, '') === asked);
      if (!model) return sendJson(res, 404, headers, error('not_found_error', `model: ${asked}`));
      const event = (type: string, data: Record<string, unknown>) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      res.writeHead(200, {
        ...headers,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
      });
      res.write(
        event('message_start', {
          message: {
            id: 'msg_01wire',
            type: 'message',
            role: 'assistant',
            content: [],
            model: model.id,
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: 25,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              output_tokens: 1,
            },
          },
        }),
      );
      res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
      res.write(event('ping', {}));
      for (const piece of pieces(answer)) {
        res.write(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }));
      }
      res.write(event('content_block_stop', { index: 0 }));
      res.write(
        event('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 9 },
        }),
      );
      res.end(event('message_stop', {}));
      return;
    }
    sendJson(res, 404, headers, error('not_found_error', 'Not found'));
  });
}
