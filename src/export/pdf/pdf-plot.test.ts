import { describe, expect, it } from 'vitest';
import type { DocumentNode } from '../../contracts/exports';
import { WarningList } from '../exporter';
import { drawPlot, type PlotSurface } from './pdf-plot';

const plotNode = (text: string, startLine?: number): DocumentNode => ({
  node_id: 'plot',
  type: 'function_plot',
  attributes: {},
  children: [],
  text,
  ...(startLine !== undefined && { position: { start_line: startLine, end_line: startLine + 3 } }),
});

// A plot that does not parse is kept as source before anything is drawn.
const untouched = new Proxy({} as PlotSurface, {
  get: () => {
    throw new Error('a broken plot draws nothing');
  },
});

describe('drawPlot', () => {
  it('names the note’s line and column of a plot kept as source, as the HTML and DOCX exports do', () => {
    const warnings = new WarningList();
    expect(drawPlot(untouched, plotNode('y = sin(x)\ny = cos(2pi x\n', 26), warnings)).toBe(false);
    expect(warnings.toArray()).toEqual([
      'FUNCTION_PLOT_PARSE_FAILED: Function plot (line 29, column 14) kept as source: Expected ")" but found the end of the expression.',
    ]);
  });

  it('leaves the line out when the node has no position', () => {
    const warnings = new WarningList();
    drawPlot(untouched, plotNode('y = foo + 1'), warnings);
    expect(warnings.toArray()[0]).toMatch(
      /^FUNCTION_PLOT_EXPRESSION_UNSAFE: Function plot kept as source: Unknown name "foo"/,
    );
  });
});
