import { compileExpression } from '../../core/expression';
import { parseFunctionPlot } from '../../core/function-plot';
import type { FunctionPlot } from '../../contracts/exports';
import type functionPlotLibrary from 'function-plot';

/** Set on a processed placeholder so a second pass skips it. */
const STATE_ATTRIBUTE = 'data-plot-state';
const PLOT_HEIGHT = 300;

export interface RenderHandle {
  update(plot: FunctionPlot): Promise<void>;
  resize(width: number, height: number): void;
  destroy(): void;
}

let loading: Promise<typeof functionPlotLibrary> | undefined;

function loadFunctionPlot(): Promise<typeof functionPlotLibrary> {
  // function-plot (with d3) is its own chunk, fetched when a note has a plot.
  // The package is CommonJS: depending on the bundler's interop the callable
  // sits on `default` or on `default.default`.
  loading ??= import('function-plot').then((module) => {
    const exported = module.default as typeof functionPlotLibrary | { default: typeof functionPlotLibrary };
    return typeof exported === 'function' ? exported : exported.default;
  });
  return loading.catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
}

/**
 * §12.3 renderInteractive: draws `plot` into `target` with pan and zoom. The
 * functions are our compiled expressions (core/expression), handed to the
 * library as callbacks, so its own string evaluator never sees note text.
 */
export async function renderInteractivePlot(plot: FunctionPlot, target: HTMLElement): Promise<RenderHandle> {
  const functionPlot = await loadFunctionPlot();
  let current = plot;
  let width = Math.max(200, Math.floor(target.clientWidth || 480));
  let height = PLOT_HEIGHT;
  const draw = () => {
    target.replaceChildren();
    functionPlot({
      target,
      width,
      height,
      grid: current.axes.grid,
      ...(current.axes.xLabel !== undefined || current.domain
        ? {
            xAxis: {
              ...(current.axes.xLabel && { label: current.axes.xLabel }),
              ...(current.domain && { domain: [...current.domain] }),
            },
          }
        : {}),
      ...(current.axes.yLabel !== undefined || current.range
        ? {
            yAxis: {
              ...(current.axes.yLabel && { label: current.axes.yLabel }),
              ...(current.range && { domain: [...current.range] }),
            },
          }
        : {}),
      data: current.expressions.map((entry) => {
        const compiled = compileExpression(entry.expression, { variables: ['x'] });
        return {
          fn: (scope: { x?: number }) => compiled.evaluate({ x: Number(scope.x) }),
          graphType: 'polyline' as const,
          ...(entry.color && { color: entry.color }),
        };
      }),
    });
  };
  draw();
  return {
    async update(plot) {
      current = plot;
      draw();
    },
    resize(nextWidth, nextHeight) {
      width = nextWidth;
      height = nextHeight;
      draw();
    },
    destroy() {
      // The chart's listeners live on its own SVG nodes; removing them frees everything.
      target.replaceChildren();
    },
  };
}

function showError(block: HTMLElement, code: string, message: string, line?: number, column?: number): void {
  block.querySelector('.plot-error')?.remove();
  const note = block.ownerDocument.createElement('p');
  note.className = 'plot-error';
  note.setAttribute('data-error-code', code);
  note.setAttribute('role', 'note');
  const where =
    line !== undefined ? ` (line ${line}${column !== undefined ? `, column ${column}` : ''})` : '';
  // textContent: the message quotes the note's own text.
  note.textContent = `Plot could not be drawn${where}: ${message}`;
  block.append(note);
  block.setAttribute(STATE_ATTRIBUTE, 'failed');
}

/**
 * Draws the `.function-plot-block` placeholders in `container`. A block that does
 * not parse keeps its source and gains a located message. Returns a function that
 * destroys every chart drawn (call it before the preview re-renders or unmounts).
 */
export async function renderFunctionPlots(
  container: HTMLElement,
  options: { signal?: AbortSignal } = {},
): Promise<() => void> {
  const handles: RenderHandle[] = [];
  const destroyAll = () => handles.splice(0).forEach((handle) => handle.destroy());
  const blocks = Array.from(
    container.querySelectorAll<HTMLElement>(`.function-plot-block:not([${STATE_ATTRIBUTE}])`),
  );
  for (const block of blocks) {
    if (options.signal?.aborted) break;
    const source = block.querySelector('pre')?.textContent ?? '';
    const parsed = parseFunctionPlot(source);
    const error = parsed.diagnostics.find((item) => item.severity === 'error');
    if (!parsed.plot || error) {
      showError(
        block,
        error?.code ?? 'FUNCTION_PLOT_PARSE_FAILED',
        error?.message ?? '',
        error?.line,
        error?.column,
      );
      continue;
    }
    const target = block.ownerDocument.createElement('div');
    target.className = 'function-plot-chart';
    block.prepend(target);
    try {
      handles.push(await renderInteractivePlot(parsed.plot, target));
      if (options.signal?.aborted) break;
      block.setAttribute(STATE_ATTRIBUTE, 'rendered');
    } catch (cause) {
      target.remove();
      showError(block, 'FUNCTION_PLOT_RENDER_FAILED', cause instanceof Error ? cause.message : '');
    }
  }
  return destroyAll;
}
