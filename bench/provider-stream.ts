// Provider streaming: a recorded OpenAI-compatible SSE stream through
// the whole adapter (fetch -> SSE -> chunk schema -> stream parts -> IR events),
// against a bare SSE parse of the same bytes, cut into the same pieces.
import type { MetonaRequest, MetonaStreamEvent } from '../src/ir';
import { OpenAICompatibleAdapter } from '../src/providers/openai-compatible';
import { SseDecoder } from '../src/providers/shared/sse';
import { compare, type BenchResult } from './harness';

/** Roughly what a network read hands over; both sides get the same pieces. */
const PIECE_BYTES = 1024;
const TOOL_CALLS = 2;
const TOOL_ARG_FRAGMENTS = ['{"query":', ' "调度算法 ', 'round robin",', ' "limit": ', '8}'];

// Token-sized deltas as models send them: English words with their leading
// space, Chinese one or two characters at a time, punctuation of both.
const TEXT_DELTAS = [
  'The',
  ' Completely',
  ' Fair',
  ' Scheduler',
  '（CFS）',
  '按',
  '虚拟',
  '运行',
  '时间',
  '排序',
  '，',
  ' picks',
  ' the',
  ' task',
  ' with',
  ' the',
  ' smallest',
  ' vruntime',
  '。',
  '死锁',
  '需要',
  '四个',
  '条件',
  ':',
  ' mutual',
  ' exclusion',
  '、',
  'hold',
  ' and',
  ' wait',
  '。\n\n',
  '- ',
  '`',
  'sched',
  '_yield',
  '`',
  ' 😀',
  '\n',
];

const ENVELOPE = {
  id: 'chatcmpl-9xQ2kLmNoPqRsTuVwXyZ0123456',
  object: 'chat.completion.chunk',
  created: 1719000000,
  model: 'gpt-4o-mini-2024-07-18',
  system_fingerprint: 'fp_0ba0d124f1',
};

const chunk = (delta: object, finish_reason: string | null = null) =>
  JSON.stringify({ ...ENVELOPE, choices: [{ index: 0, delta, logprobs: null, finish_reason }] });

/** `chunks` chat.completion.chunk events (role, text, tool calls, finish, usage), then [DONE]. */
export function buildOpenAIStream(chunks: number): Uint8Array {
  const toolChunks = TOOL_CALLS * TOOL_ARG_FRAGMENTS.length;
  const textChunks = Math.max(1, chunks - toolChunks - 3); // role, finish and usage chunks
  const payloads: string[] = [chunk({ role: 'assistant', content: '' })];
  for (let i = 0; i < textChunks; i++) payloads.push(chunk({ content: TEXT_DELTAS[i % TEXT_DELTAS.length] }));
  for (let call = 0; call < TOOL_CALLS; call++) {
    TOOL_ARG_FRAGMENTS.forEach((args, fragment) =>
      payloads.push(
        chunk({
          tool_calls: [
            fragment === 0
              ? {
                  index: call,
                  id: `call_search_${call}`,
                  type: 'function',
                  function: { name: 'search_notes', arguments: args },
                }
              : { index: call, function: { arguments: args } },
          ],
        }),
      ),
    );
  }
  payloads.push(chunk({}, 'tool_calls'));
  payloads.push(
    JSON.stringify({
      ...ENVELOPE,
      choices: [],
      usage: {
        prompt_tokens: 812,
        completion_tokens: chunks,
        total_tokens: 812 + chunks,
        prompt_tokens_details: { cached_tokens: 512, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    }),
  );
  payloads.push('[DONE]');
  return new TextEncoder().encode(payloads.map((data) => `data: ${data}\n\n`).join(''));
}

function piecesOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    pieces.push(bytes.subarray(offset, offset + size));
  return pieces;
}

const t = 1719000000000;
const request: MetonaRequest = {
  meta: { sessionId: 's_bench', iteration: 1, requestId: 'r_bench', timestamp: t, agentVersion: 'bench' },
  systemPrompt: { roleDefinition: 'r', outputConstraints: '', safetyGuidelines: '' },
  messages: [{ role: 'user', content: 'hi', timestamp: t }],
  params: { stream: true },
};

export async function providerStreamBenchmarks(scale: number): Promise<BenchResult[]> {
  const chunks = Math.max(50, Math.round(20_000 * scale));
  const bytes = buildOpenAIStream(chunks);
  const pieces = piecesOf(bytes, PIECE_BYTES);
  console.log(
    `Provider streaming: ${chunks} chat.completion.chunk events + [DONE], ${(bytes.length / 1024).toFixed(0)} KiB in ${pieces.length} pieces of ${PIECE_BYTES} B; ` +
      'ours = OpenAICompatibleAdapter.sendStream over an injected fetch (ReadableStream body) counting IR events; ' +
      'baseline = SseDecoder.push (src/providers/shared/sse.ts) over the same pieces, synchronous, no JSON. Median of 3 runs after a warm-up.',
  );

  const fetch = (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of pieces) controller.enqueue(piece);
          controller.close();
        },
      }),
      { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
    )) as typeof globalThis.fetch;
  const adapter = new OpenAICompatibleAdapter({ preset: 'openai', apiKey: 'sk-bench', fetch });

  let irEvents = 0;
  const ours = async () => {
    const types = new Map<MetonaStreamEvent['type'], number>();
    const response = await adapter.sendStream(request, (event) =>
      types.set(event.type, (types.get(event.type) ?? 0) + 1),
    );
    irEvents = [...types.values()].reduce((a, b) => a + b, 0);
    const toolCalls = types.get('tool_call_complete') ?? 0;
    if (response.finishReason !== 'tool_calls' || toolCalls !== TOOL_CALLS || types.get('done') !== 1) {
      throw new Error(`adapter stream ended wrongly: ${response.finishReason}, ${toolCalls} tool calls`);
    }
  };
  let sseEvents = 0;
  const bare = async () => {
    const decoder = new SseDecoder();
    let count = 0;
    for (const piece of pieces) count += decoder.push(piece).length;
    count += decoder.end().length;
    if (count !== chunks + 1) throw new Error(`bare SSE parse saw ${count} of ${chunks + 1} events`);
    sseEvents = count;
  };

  const result = await compare(
    `stream ${chunks} chunks through OpenAI adapter`,
    'bare SseDecoder parse',
    ours,
    bare,
    3,
  );
  const perSecond = (ms: number) => Math.round(chunks / (ms / 1000)).toLocaleString('en-US');
  result.note = `${perSecond(result.ms)} chunks/s vs ${perSecond(result.baselineMs)} chunks/s; ${irEvents} IR events from ${sseEvents} SSE events`;
  return [result];
}
