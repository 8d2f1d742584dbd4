import type { ServerResponse } from 'node:http';
import { sendJson, startWireServer, type WireServer } from './wire-server';

export interface HeldStreamServer extends WireServer {
  /** Settles when the browser has dropped the answer's connection (Stop aborts the request). */
  dropped: Promise<void>;
  /** Breaks every answer still held, as a lost connection does, without an end marker. */
  cut(): void;
}

/** One OpenAI chat-completion chunk as an SSE event. */
function chunk(delta: Record<string, unknown>): string {
  const body = {
    id: 'held',
    object: 'chat.completion.chunk',
    model: 'script-model',
    choices: [{ index: 0, delta, finish_reason: null }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/**
 * An OpenAI-compatible endpoint (with CORS) whose model `script-model` starts every answer with
 * `firstWords` and then holds it open, neither adding to it nor ending it, until the browser
 * drops the connection (Stop) or the test `cut`s it. A test sees the answer streaming for as long
 * as it needs, however slow the machine: nothing depends on how fast a stream runs out.
 */
export async function startHeldStreamServer(firstWords: string): Promise<HeldStreamServer> {
  let markDropped: () => void = () => {};
  const dropped = new Promise<void>((resolve) => {
    markDropped = resolve;
  });
  const held = new Set<ServerResponse>();
  const cutByTest = new WeakSet<ServerResponse>();
  const server = await startWireServer({ cors: true }, (request, res, headers) => {
    if (request.path.endsWith('/models')) {
      sendJson(res, 200, headers, { object: 'list', data: [{ id: 'script-model', object: 'model' }] });
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: firstWords }));
    held.add(res);
    res.on('close', () => {
      held.delete(res);
      if (!cutByTest.has(res)) markDropped();
    });
  });
  return {
    ...server,
    dropped,
    cut: () => {
      for (const res of held) {
        cutByTest.add(res);
        res.destroy();
      }
    },
  };
}
