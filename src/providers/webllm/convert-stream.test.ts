import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter, perfStatsFromUsageExtra } from './convert-stream';

function split(text: string, cuts: number[]): { reasoning: string; text: string } {
  const splitter = new ThinkTagSplitter();
  const out = { reasoning: '', text: '' };
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    for (const piece of splitter.push(text.slice(at, cut)))
      out[piece.kind === 'reasoning' ? 'reasoning' : 'text'] += piece.delta;
    at = cut;
  }
  for (const piece of splitter.finish())
    out[piece.kind === 'reasoning' ? 'reasoning' : 'text'] += piece.delta;
  return out;
}

describe('ThinkTagSplitter', () => {
  const cases: Array<[string, { reasoning: string; text: string }]> = [
    [
      '<think>\nThe user greets me.\nI greet back.\n</think>\n\nHi there!',
      { reasoning: 'The user greets me.\nI greet back.', text: 'Hi there!' },
    ],
    ['<think>\n\n</think>\n\nHello!', { reasoning: '', text: 'Hello!' }], // thinking switched off
    ['Hello! <think> is a tag.', { reasoning: '', text: 'Hello! <think> is a tag.' }], // not leading: text
    ['\n<think>plan</think>answer', { reasoning: 'plan', text: 'answer' }],
    ['<think>cut off by max_tokens', { reasoning: 'cut off by max_tokens', text: '' }],
    ['<thin', { reasoning: '', text: '<thin' }],
    ['', { reasoning: '', text: '' }],
    ['你好<think>', { reasoning: '', text: '你好<think>' }],
  ];

  it('splits the same way wherever the chunks are cut', () => {
    for (const [input, expected] of cases) {
      expect(split(input, []), input).toEqual(expected);
      for (let cut = 0; cut <= input.length; cut++) {
        for (let second = cut; second <= input.length; second += 3) {
          expect(split(input, [cut, second]), `${JSON.stringify(input)} @${cut},${second}`).toEqual(expected);
        }
      }
    }
  });

  it('streams reasoning as it comes instead of waiting for the closing tag', () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push('<think>\nStep one.')).toEqual([{ kind: 'reasoning', delta: 'Step one.' }]);
    expect(splitter.push(' Step two.</th')).toEqual([{ kind: 'reasoning', delta: ' Step two.' }]);
    expect(splitter.push('ink>Answer')).toEqual([{ kind: 'text', delta: 'Answer' }]);
  });
});

describe('perf stats from usage.extra', () => {
  it('maps decode tokens/s, time to first token and decode time', () => {
    expect(
      perfStatsFromUsageExtra({
        e2e_latency_s: 2,
        prefill_tokens_per_s: 300,
        decode_tokens_per_s: 25,
        time_to_first_token_s: 0.5,
        time_per_output_token_s: 0.04,
      }),
    ).toEqual({ tokensPerSecond: 25, promptEvalDurationMs: 500, evalDurationMs: 1500 });
  });

  it('skips missing or non-finite figures', () => {
    expect(perfStatsFromUsageExtra(undefined)).toEqual({});
    expect(perfStatsFromUsageExtra({ decode_tokens_per_s: Number.NaN, time_to_first_token_s: 0.1 })).toEqual({
      promptEvalDurationMs: 100,
    });
  });
});
