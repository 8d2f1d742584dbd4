import { describe, expect, it } from 'vitest';
import type { AgentCommand, ExecCommand } from '../protocol';
import { parseFrame } from '../protocol';
import { codeBlock, symbolOutline } from './format-code';
import { buildPrompt } from './templates';

function command(frame: Record<string, unknown>): ExecCommand {
  const parsed = parseFrame(JSON.stringify({ request_id: 1, model: 'm', ...frame }));
  if (parsed.kind !== 'command') throw new Error(JSON.stringify(parsed));
  return parsed.command as Exclude<AgentCommand, { cmd: 'list_model' }>;
}

const selection = {
  filepath: 'example\\game.py',
  range: { start: { line: 33, character: 0 }, end: { line: 45, character: 41 } },
  text: 'def next_turn():\n    return 1\n',
};

describe('buildPrompt', () => {
  it('explain: both code sections, path with forward slashes, range, language fence', () => {
    const prompt = buildPrompt(
      command({ cmd: 'exec_explain', selected_text: selection, visible_text: selection }),
    );
    expect(prompt.user).toContain(
      'Selected code (`example/game.py`, lines 33:0-45:41):\n```python\ndef next_turn()',
    );
    expect(prompt.user).toContain('Visible code around it');
    expect(prompt.system.outputConstraints).toMatch(/Explain .* Answer in English\.$/);
  });

  it('answers in Chinese when language is zh', () => {
    const prompt = buildPrompt(command({ cmd: 'exec_fix', selected_text: selection, language: 'zh' }));
    expect(prompt.user.startsWith('需要修复的代码')).toBe(true);
    expect(prompt.system.outputConstraints).toContain('请用简体中文回答。');
    expect(prompt.system.roleDefinition).toContain('资深软件工程师');
  });

  it.each(['exec_docstring', 'exec_optimize', 'exec_fix'])('%s puts the selection in a code block', (cmd) => {
    const prompt = buildPrompt(command({ cmd, selected_text: 'x = 1' }));
    expect(prompt.user).toContain('```\nx = 1\n```');
  });

  it('unit-test recommendation: function, symbols, file and notes', () => {
    const prompt = buildPrompt(
      command({
        cmd: 'exec_unittest_recommend',
        file_content: 'WIDTH = 3\ndef next_turn(): ...',
        filepath: '\\example\\game.py',
        func_name: 'next_turn',
        func_location: selection.range,
        func_symbols: [
          { name: 'next_turn', kind: 'Function', children: [{ name: 'WIDTH', kind: 'Constant' }] },
        ],
        user_prompt: 'focus on wrap-around',
      }),
    );
    expect(prompt.user).toContain('Function `next_turn` in `/example/game.py`, lines 33:0-45:41.');
    expect(prompt.user).toContain('- next_turn (Function)\n  - WIDTH (Constant)');
    expect(prompt.user).toContain('Notes from the developer:\nfocus on wrap-around');
  });

  it('unit-test code: test cases first, IDE context when there is some, nothing empty', () => {
    const bare = buildPrompt(command({ cmd: 'exec_unittest_code', test_cases_str: '1. empty board' }));
    expect(bare.user).toBe('Test cases to implement:\n1. empty board');
    const rich = buildPrompt(
      command({
        cmd: 'exec_unittest_code',
        test_cases_str: '1. a',
        function_name: 'f',
        file_path: 'src/a.py',
      }),
      { ideContext: 'File outline:\n- f (Function)' },
    );
    expect(rich.user).toContain('Function `f` in `src/a.py`.');
    expect(rich.user).toContain('Context from the IDE:\nFile outline:');
  });

  it('chat passes the message through unchanged', () => {
    expect(buildPrompt(command({ cmd: 'exec_chat', msg: '/scenario text' })).user).toBe('/scenario text');
  });
});

describe('format helpers', () => {
  it('a code block cannot be closed by backticks inside the code', () => {
    expect(codeBlock('a ```b``` c', 'x.ts')).toBe('````typescript\na ```b``` c\n````');
  });

  it('bounds the outline of a huge symbol tree', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ name: `s${i}`, kind: 12 }));
    expect(symbolOutline(many).split('\n')).toHaveLength(200);
  });
});
