import { pieces, sendJson, startWireServer, type WireServer } from './wire-server';

export interface OllamaModel {
  /** As `/api/tags` lists it: always with its tag (`llama3:latest`). */
  name: string;
  parameterSize?: string;
  contextLength?: number;
}

export interface OllamaWireOptions {
  models?: OllamaModel[];
  /** The answer each chat streams. */
  answer?: string;
  /** False: serve like an Ollama started without this page's origin in OLLAMA_ORIGINS. */
  cors?: boolean;
}

/**
 * Ollama's native API on 127.0.0.1: `/api/version`, `/api/tags`, `/api/show`
 * and `/api/chat` streaming NDJSON (one JSON object a line, the last with
 * `done: true`, `done_reason` and the durations in nanoseconds). Like Ollama,
 * it runs an untagged model name as `:latest` and answers a model it does not
 * have with 404 `{"error":"model \"x\" not found, try pulling it first"}`.
 */
export function startOllamaWireServer(options: OllamaWireOptions = {}): Promise<WireServer> {
  const models = options.models ?? [
    { name: 'qwen2.5:7b', parameterSize: '7.6B', contextLength: 32_768 },
    { name: 'llama3:latest', parameterSize: '8.0B', contextLength: 8192 },
  ];
  const answer = options.answer ?? 'Hello from the local llama.';
  const find = (name: unknown) => {
    const wanted = typeof name === 'string' && !name.includes(':') ? `${name}:latest` : name;
    return models.find((model) => model.name === wanted);
  };
  return startWireServer({ cors: options.cors ?? true }, (request, res, headers) => {
    const { method, path, body } = request;
    if (method === 'GET' && path === '/api/version')
      return sendJson(res, 200, headers, { version: '0.12.6' });
    if (method === 'GET' && path === '/api/tags') {
      return sendJson(res, 200, headers, {
        models: models.map((model) => ({
          name: model.name,
          model: model.name,
          modified_at: '2026-11-03T23:34:03.409490317-07:00',
          size: 4_661_224_676,
          digest: 'a2af6cc3eb7fa8be8504abaf9b04e88f17a119ec3f04a3addf55f92841195f5a',
          details: {
            format: 'gguf',
            family: 'llama',
            families: ['llama'],
            parameter_size: model.parameterSize ?? '8.0B',
            quantization_level: 'Q4_0',
          },
        })),
      });
    }
    if (method !== 'POST' || (path !== '/api/show' && path !== '/api/chat')) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('404 page not found');
      return;
    }
    const sent: unknown = body;
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) {
      // What Ollama's JSON binding says to a body that is not an object.
      const type = path === '/api/show' ? 'ShowRequest' : 'ChatRequest';
      return sendJson(res, 400, headers, {
        error: `json: cannot unmarshal ${typeof sent} into Go value of type api.${type}`,
      });
    }
    const fields = sent as Record<string, unknown>;
    const model = find(fields.model);
    if (!model) {
      return sendJson(res, 404, headers, {
        error: `model "${String(fields.model)}" not found, try pulling it first`,
      });
    }
    if (path === '/api/show') {
      return sendJson(res, 200, headers, {
        details: { family: 'llama', parameter_size: model.parameterSize ?? '8.0B' },
        model_info: { 'general.architecture': 'llama', 'llama.context_length': model.contextLength ?? 8192 },
        capabilities: ['completion'],
      });
    }
    const created = '2026-12-06T00:00:00.000000Z';
    // Ollama names the model in every line as the request spelled it.
    const name = fields.model as string;
    res.writeHead(200, { ...headers, 'Content-Type': 'application/x-ndjson' });
    for (const piece of pieces(answer)) {
      res.write(
        `${JSON.stringify({ model: name, created_at: created, message: { role: 'assistant', content: piece }, done: false })}\n`,
      );
    }
    res.end(
      `${JSON.stringify({
        model: name,
        created_at: created,
        message: { role: 'assistant', content: '' },
        done_reason: 'stop',
        done: true,
        total_duration: 1_200_000_000,
        load_duration: 60_000_000,
        prompt_eval_count: 26,
        prompt_eval_duration: 240_000_000,
        eval_count: 12,
        eval_duration: 900_000_000,
      })}\n`,
    );
  });
}
