import { describe, expect, it } from 'vitest';
import type { CommandOf } from '../protocol';
import { gatherUnitTestContext } from './gather-unittest-context';
import { IdeCallbackError, type IdeServices } from './ide-callback-client';

const range = (line: number) => ({ start: { line, character: 4 }, end: { line, character: 9 } });
const command = (extra: Partial<CommandOf<'exec_unittest_code'>> = {}): CommandOf<'exec_unittest_code'> => ({
  cmd: 'exec_unittest_code',
  request_id: 1,
  language: 'en',
  stream: false,
  test_cases_str: '1. a',
  function_name: 'next_turn',
  user_prompt: '',
  file_path: 'src/game.py',
  relevant_content: '',
  reference_content: '',
  ...extra,
});
const symbols = [
  { name: 'WIDTH', kind: 'Constant', range: range(1) },
  {
    name: 'next_turn',
    kind: 'Function',
    range: range(3),
    children: [
      { name: 'board', kind: 'Variable', range: range(4) },
      { name: 'player', kind: 'Variable', range: range(5) },
    ],
  },
];

function fakeIde(answers: Partial<Record<string, (params: { line?: number }) => unknown>>): IdeServices & {
  asked: string[];
} {
  const asked: string[] = [];
  return {
    asked,
    call: async (name, params) => {
      asked.push(name);
      const answer = answers[name];
      if (!answer) throw new IdeCallbackError('timeout', 'no answer');
      return answer(params as { line?: number }) as never;
    },
  };
}

describe('gatherUnitTestContext', () => {
  it('uses the outline and the definitions of the symbols inside the function', async () => {
    const ide = fakeIde({
      get_document_symbols: () => symbols,
      find_def_locations: ({ line }) => (line === 4 ? [{ abspath: 'src\\board.py', range: range(10) }] : []),
      find_type_def_locations: ({ line }) =>
        line === 4 ? [{ abspath: 'src/board.py', range: range(2) }] : [],
    });
    const context = await gatherUnitTestContext(command(), ide, new AbortController().signal);
    expect(context.text).toBe(
      [
        'Outline of `src/game.py`:',
        '- WIDTH (Constant) [1:4-1:9]',
        '- next_turn (Function) [3:4-3:9]',
        '  - board (Variable) [4:4-4:9]',
        '  - player (Variable) [5:4-5:9]',
        '',
        'Symbols used in `next_turn`:',
        '- board (Variable): defined at src/board.py 10:4-10:9; type defined at src/board.py 2:4-2:9',
      ].join('\n'),
    );
    expect(context.failed).toEqual([]);
    expect(context.answered).toHaveLength(5);
  });

  it('stops after get_document_symbols fails: no more waiting on a plugin that does not answer', async () => {
    const ide = fakeIde({});
    const context = await gatherUnitTestContext(command(), ide, new AbortController().signal);
    expect(context).toEqual({ text: '', answered: [], failed: ['get_document_symbols'] });
    expect(ide.asked).toEqual(['get_document_symbols']);
  });

  it('keeps the outline when the definition look-ups fail, and asks nothing without a file', async () => {
    const ide = fakeIde({ get_document_symbols: () => symbols });
    const context = await gatherUnitTestContext(command(), ide, new AbortController().signal);
    expect(context.text.startsWith('Outline of `src/game.py`')).toBe(true);
    expect(context.failed).toHaveLength(4);
    const none = fakeIde({});
    expect(
      (await gatherUnitTestContext(command({ file_path: '' }), none, new AbortController().signal)).text,
    ).toBe('');
    expect(none.asked).toEqual([]);
  });
});
