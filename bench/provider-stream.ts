// Provider streaming: recorded OpenAI-compatible, Anthropic and Ollama streams
// through the whole adapter (fetch -> decoder -> wire schema -> stream parts ->
// IR events), against floors (split the same bytes and JSON.parse each payload,
// nothing else), eventsource-parser + JSON.parse, and the AI SDK's own
// OpenAI-compatible provider (`doStream`) over the same bytes cut into the same pieces.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, streamText, tool } from 'ai';
import { createParser } from 'eventsource-parser';
import type { MetonaRequest, MetonaStreamEvent } from '../src/ir';
import { AnthropicAdapter } from '../src/providers/anthropic';
import { OllamaAdapter } from '../src/providers/ollama';
import { OpenAICompatibleAdapter } from '../src/providers/openai-compatible';
import { performance } from 'node:perf_hooks';
import type { BenchResult } from './harness';

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

function fetchOf(pieces: Uint8Array[], contentType: string): typeof globalThis.fetch {
  return (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of pieces) controller.enqueue(piece);
          controller.close();
        },
      }),
      { status: 200, headers: { 'Content-Type': contentType } },
    )) as typeof globalThis.fetch;
}

/** Runs one adapter stream, counting IR events by type. */
async function countEvents(
  send: (onEvent: (event: MetonaStreamEvent) => void) => Promise<{ finishReason: string }>,
): Promise<{ types: Map<MetonaStreamEvent['type'], number>; finishReason: string }> {
  const types = new Map<MetonaStreamEvent['type'], number>();
  const response = await send((event) => types.set(event.type, (types.get(event.type) ?? 0) + 1));
  return { types, finishReason: response.finishReason };
}

/**
 * The floor for a stream of blank-line-separated SSE events: decode the
 * pieces, cut at each blank line, JSON.parse what follows `data: `. No
 * validation, no events, no state.
 */
function sseSplitParse(pieces: Uint8Array[]): number {
  const decoder = new TextDecoder();
  let buffer = '';
  let count = 0;
  const take = (final: boolean) => {
    let start = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
      const dataAt = buffer.indexOf('data: ', start);
      const data = buffer.slice(dataAt + 6, end);
      if (data !== '[DONE]') JSON.parse(data);
      count++;
      start = end + 2;
    }
    buffer = final ? '' : buffer.slice(start);
  };
  for (const piece of pieces) {
    buffer += decoder.decode(piece, { stream: true });
    take(false);
  }
  buffer += decoder.decode();
  take(true);
  return count;
}

/** The floor for NDJSON: decode, cut at each newline, JSON.parse each line. */
function ndjsonSplitParse(pieces: Uint8Array[]): number {
  const decoder = new TextDecoder();
  let buffer = '';
  let count = 0;
  const take = () => {
    let start = 0;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
      if (end > start) {
        JSON.parse(buffer.slice(start, end));
        count++;
      }
      start = end + 1;
    }
    buffer = buffer.slice(start);
  };
  for (const piece of pieces) {
    buffer += decoder.decode(piece, { stream: true });
    take();
  }
  buffer += decoder.decode();
  take();
  return count;
}

/** A Messages API stream of the same size: text deltas, one tool call, usage, stop. */
export function buildAnthropicStream(events: number): Uint8Array {
  const lines: [string, object][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
          type: 'message',
          role: 'assistant',
          content: [],
          model: 'claude-sonnet-4-5-20250929',
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: 812,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 512,
            output_tokens: 1,
          },
        },
      },
    ],
    [
      'content_block_start',
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ],
  ];
  const textEvents = Math.max(1, events - TOOL_ARG_FRAGMENTS.length - 7);
  for (let i = 0; i < textEvents; i++) {
    lines.push([
      'content_block_delta',
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: TEXT_DELTAS[i % TEXT_DELTAS.length] },
      },
    ]);
  }
  lines.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
  lines.push([
    'content_block_start',
    {
      type: 'content_block_start',
      index: 1,
      content_block: {
        type: 'tool_use',
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'search_notes',
        input: {},
      },
    },
  ]);
  for (const partial_json of TOOL_ARG_FRAGMENTS) {
    lines.push([
      'content_block_delta',
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json } },
    ]);
  }
  lines.push(['content_block_stop', { type: 'content_block_stop', index: 1 }]);
  lines.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: events },
    },
  ]);
  lines.push(['message_stop', { type: 'message_stop' }]);
  return new TextEncoder().encode(
    lines.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(''),
  );
}

/** An /api/chat NDJSON stream of the same size: content lines, one tool call, the done line. */
export function buildOllamaStream(lines: number): Uint8Array {
  const base = { model: 'qwen3:8b', created_at: '2025-06-26T08:52:19.000020Z' };
  const out: object[] = [];
  for (let i = 0; i < lines - 2; i++) {
    out.push({
      ...base,
      message: { role: 'assistant', content: TEXT_DELTAS[i % TEXT_DELTAS.length] },
      done: false,
    });
  }
  out.push({
    ...base,
    message: {
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'search_notes', arguments: { query: 'round robin', limit: 8 } } }],
    },
    done: false,
  });
  out.push({
    ...base,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    total_duration: 1256789000,
    load_duration: 23456000,
    prompt_eval_count: 812,
    prompt_eval_duration: 85000000,
    eval_count: lines,
    eval_duration: 400000000,
  });
  return new TextEncoder().encode(out.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

const RUNS = 5;

/**
 * Like the harness's compare, but the two sides alternate run by run: other
 * work on a shared machine then slows both alike, and the ratio holds still.
 */
async function compare(
  name: string,
  baseline: string,
  ours: () => Promise<void>,
  reference: () => Promise<void>,
): Promise<BenchResult> {
  await reference();
  await ours();
  const oursMs: number[] = [];
  const referenceMs: number[] = [];
  const ratios: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    await reference();
    referenceMs.push(performance.now() - start);
    start = performance.now();
    await ours();
    oursMs.push(performance.now() - start);
    ratios.push(oursMs[run]! / referenceMs[run]!);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { name, baseline, ms: median(oursMs), baselineMs: median(referenceMs), ratio: median(ratios) };
}

const perSecond = (count: number, ms: number) => Math.round(count / (ms / 1000)).toLocaleString('en-US');

export async function providerStreamBenchmarks(scale: number): Promise<BenchResult[]> {
  const chunks = Math.max(50, Math.round(20_000 * scale));
  const bytes = buildOpenAIStream(chunks);
  const pieces = piecesOf(bytes, PIECE_BYTES);
  console.log(
    `Provider streaming: ${chunks} chat.completion.chunk events + [DONE], ${(bytes.length / 1024).toFixed(0)} KiB in ${pieces.length} pieces of ${PIECE_BYTES} B ` +
      '(Anthropic and Ollama streams of the same event count, same piece size); ' +
      "ours = the adapter's sendStream over an injected fetch (ReadableStream body) counting IR events; " +
      'floor = decode + cut at blank lines (or newlines) + JSON.parse per payload, synchronous; ' +
      'eventsource-parser = its createParser().feed over the decoded pieces + JSON.parse; ' +
      "AI SDK = @ai-sdk/openai-compatible chatModel().doStream over the same fetch, reading every part, and ai's streamText over that model reading fullStream. " +
      `Median of ${RUNS} runs after a warm-up, the two sides alternating run by run; the ratio is the median of the per-run ratios.`,
  );

  const adapter = new OpenAICompatibleAdapter({
    preset: 'openai',
    apiKey: 'sk-bench',
    fetch: fetchOf(pieces, 'text/event-stream'),
  });
  let irEvents = 0;
  const ours = async () => {
    const { types, finishReason } = await countEvents((onEvent) => adapter.sendStream(request, onEvent));
    irEvents = [...types.values()].reduce((a, b) => a + b, 0);
    const toolCalls = types.get('tool_call_complete') ?? 0;
    if (finishReason !== 'tool_calls' || toolCalls !== TOOL_CALLS || types.get('done') !== 1) {
      throw new Error(`adapter stream ended wrongly: ${finishReason}, ${toolCalls} tool calls`);
    }
  };
  const floor = async () => {
    const count = sseSplitParse(pieces);
    if (count !== chunks + 1) throw new Error(`SSE split saw ${count} of ${chunks + 1} events`);
  };
  const eventsourceParser = async () => {
    let count = 0;
    const parser = createParser({
      onEvent: (event) => {
        if (event.data !== '[DONE]') JSON.parse(event.data);
        count++;
      },
    });
    const decoder = new TextDecoder();
    for (const piece of pieces) parser.feed(decoder.decode(piece, { stream: true }));
    parser.feed(decoder.decode());
    if (count !== chunks + 1) throw new Error(`eventsource-parser saw ${count} of ${chunks + 1} events`);
  };
  const aiSdkModel = createOpenAICompatible({
    name: 'bench',
    baseURL: 'https://api.openai.com/v1',
    apiKey: 'sk-bench',
    includeUsage: true,
    fetch: fetchOf(pieces, 'text/event-stream'),
  }).chatModel('gpt-4o-mini');
  let aiSdkParts = 0;
  const aiSdk = async () => {
    const { stream } = await aiSdkModel.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [
        {
          type: 'function',
          name: 'search_notes',
          inputSchema: {
            type: 'object',
            properties: { query: { type: 'string' }, limit: { type: 'number' } },
          },
        },
      ],
    });
    const reader = stream.getReader();
    let count = 0;
    let toolCalls = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      count++;
      if (value.type === 'tool-call') toolCalls++;
    }
    if (toolCalls !== TOOL_CALLS) throw new Error(`AI SDK stream saw ${toolCalls} tool calls`);
    aiSdkParts = count;
  };

  // The SDK's whole streaming call, as an app using it would make one.
  const aiSdkStreamText = async () => {
    const result = streamText({
      model: aiSdkModel,
      prompt: 'hi',
      tools: {
        search_notes: tool({
          inputSchema: jsonSchema<{ query: string; limit: number }>({
            type: 'object',
            properties: { query: { type: 'string' }, limit: { type: 'number' } },
          }),
        }),
      },
    });
    let toolCalls = 0;
    for await (const part of result.fullStream) if (part.type === 'tool-call') toolCalls++;
    if (toolCalls !== TOOL_CALLS) throw new Error(`AI SDK streamText saw ${toolCalls} tool calls`);
  };

  const name = `stream ${chunks} chunks through OpenAI adapter`;
  const results: BenchResult[] = [];
  const vsFloor = await compare(name, 'SSE split + JSON.parse (floor)', ours, floor);
  vsFloor.note = `${perSecond(chunks, vsFloor.ms)} chunks/s vs ${perSecond(chunks, vsFloor.baselineMs)}; ${irEvents} IR events`;
  results.push(vsFloor);
  const vsParser = await compare(name, 'eventsource-parser + JSON.parse', ours, eventsourceParser);
  vsParser.note = `${perSecond(chunks, vsParser.ms)} chunks/s vs ${perSecond(chunks, vsParser.baselineMs)}`;
  results.push(vsParser);
  const vsAiSdk = await compare(name, 'AI SDK openai-compatible doStream', ours, aiSdk);
  vsAiSdk.note = `${perSecond(chunks, vsAiSdk.ms)} chunks/s vs ${perSecond(chunks, vsAiSdk.baselineMs)}; AI SDK: ${aiSdkParts} parts`;
  results.push(vsAiSdk);
  const vsStreamText = await compare(name, 'AI SDK streamText (fullStream)', ours, aiSdkStreamText);
  vsStreamText.note = `${perSecond(chunks, vsStreamText.ms)} chunks/s vs ${perSecond(chunks, vsStreamText.baselineMs)}`;
  results.push(vsStreamText);

  const anthropicBytes = buildAnthropicStream(chunks);
  const anthropicPieces = piecesOf(anthropicBytes, PIECE_BYTES);
  const anthropic = new AnthropicAdapter({
    apiKey: 'sk-ant-bench',
    fetch: fetchOf(anthropicPieces, 'text/event-stream'),
  });
  const anthropicOurs = async () => {
    const { types, finishReason } = await countEvents((onEvent) => anthropic.sendStream(request, onEvent));
    if (finishReason !== 'tool_calls' || types.get('tool_call_complete') !== 1 || types.get('done') !== 1) {
      throw new Error(`Anthropic stream ended wrongly: ${finishReason}`);
    }
  };
  const anthropicFloor = async () => {
    const count = sseSplitParse(anthropicPieces);
    if (count !== chunks) throw new Error(`SSE split saw ${count} of ${chunks} Anthropic events`);
  };
  const vsAnthropic = await compare(
    `stream ${chunks} events through Anthropic adapter`,
    'SSE split + JSON.parse (floor)',
    anthropicOurs,
    anthropicFloor,
  );
  vsAnthropic.note = `${perSecond(chunks, vsAnthropic.ms)} events/s vs ${perSecond(chunks, vsAnthropic.baselineMs)}; ${(anthropicBytes.length / 1024).toFixed(0)} KiB`;
  results.push(vsAnthropic);

  const ollamaBytes = buildOllamaStream(chunks);
  const ollamaPieces = piecesOf(ollamaBytes, PIECE_BYTES);
  const ollama = new OllamaAdapter({
    model: 'qwen3:8b',
    fetch: fetchOf(ollamaPieces, 'application/x-ndjson'),
  });
  const ollamaOurs = async () => {
    const { types, finishReason } = await countEvents((onEvent) => ollama.sendStream(request, onEvent));
    if (finishReason !== 'tool_calls' || types.get('tool_call_complete') !== 1 || types.get('done') !== 1) {
      throw new Error(`Ollama stream ended wrongly: ${finishReason}`);
    }
  };
  const ollamaFloor = async () => {
    const count = ndjsonSplitParse(ollamaPieces);
    if (count !== chunks) throw new Error(`NDJSON split saw ${count} of ${chunks} lines`);
  };
  const vsOllama = await compare(
    `stream ${chunks} lines through Ollama adapter`,
    'NDJSON split + JSON.parse (floor)',
    ollamaOurs,
    ollamaFloor,
  );
  vsOllama.note = `${perSecond(chunks, vsOllama.ms)} lines/s vs ${perSecond(chunks, vsOllama.baselineMs)}; ${(ollamaBytes.length / 1024).toFixed(0)} KiB`;
  results.push(vsOllama);
  return results;
}
