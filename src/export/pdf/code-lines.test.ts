import { describe, expect, it } from 'vitest';
import { codeCells, wrapCodeLine } from './code-lines';

const text = (cells: ReadonlyArray<{ text: string }>) => cells.map((cell) => cell.text).join('');

describe('code lines', () => {
  it('expands a tab to the next stop of four columns, counting a CJK character as two', () => {
    expect(text(codeCells('\treturn 1'))).toBe('    return 1');
    expect(text(codeCells('ab\tc'))).toBe('ab  c');
    expect(text(codeCells('计\tx'))).toBe('计  x');
    expect(codeCells('计a').map((cell) => cell.columns)).toEqual([2, 1]);
  });

  it('wraps a long line to its own indent, at a space, and loses no character', () => {
    const source = '    return sum(t := t + j for j in jobs) / len(jobs)';
    const lines = wrapCodeLine(source, 30);
    expect(lines.map((line) => [line.indent, line.continued, text(line.cells)])).toEqual([
      [0, false, '    return sum(t := t + j for '],
      [4, true, 'j in jobs) / len(jobs)'],
    ]);
    expect(lines.map((line) => text(line.cells)).join('')).toBe(source);
    for (const line of lines)
      expect(line.indent + line.cells.reduce((sum, cell) => sum + cell.columns, 0)).toBeLessThanOrEqual(30);
  });

  it('breaks a word with no space in reach, and keeps a blank or empty line as it is', () => {
    expect(wrapCodeLine('  abcdefghij', 6).map((line) => text(line.cells))).toEqual(['  abcd', 'efgh', 'ij']);
    expect(wrapCodeLine('', 10)).toEqual([{ indent: 0, cells: [], continued: false }]);
    expect(wrapCodeLine('        ', 4).map((line) => text(line.cells))).toEqual(['        ']);
  });

  it('never splits a wide character across lines', () => {
    const lines = wrapCodeLine('# 计算平均等待时间', 7);
    expect(lines.map((line) => text(line.cells))).toEqual(['# 计算', '平均等', '待时间']);
  });

  it("keeps each run's colour on its cells, through tab stops and wrapping", () => {
    const runs = [
      { text: '\tdef', color: '#d73a49' },
      { text: ' 计算(x):' },
      { text: ' "a long string"', color: '#032f62' },
    ];
    expect(codeCells(runs).slice(0, 5)).toEqual([
      { text: ' ', columns: 1, color: '#d73a49' },
      { text: ' ', columns: 1, color: '#d73a49' },
      { text: ' ', columns: 1, color: '#d73a49' },
      { text: ' ', columns: 1, color: '#d73a49' },
      { text: 'd', columns: 1, color: '#d73a49' },
    ]);
    const lines = wrapCodeLine(runs, 16);
    expect(lines.map((line) => text(line.cells)).join('')).toBe('    def 计算(x): "a long string"');
    const last = lines.at(-1)!;
    expect(last.continued).toBe(true);
    expect(last.cells.filter((cell) => cell.text !== ' ').every((cell) => cell.color === '#032f62')).toBe(
      true,
    );
    expect(lines[0]?.cells.find((cell) => cell.text === '计')?.color).toBeUndefined();
  });
});
