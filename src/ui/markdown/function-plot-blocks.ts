import {
  compilePlotFunctions,
  DEFAULT_PLOT_DOMAIN,
  parseFunctionPlot,
  plotRange,
} from '../../core/function-plot';
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

/**
 * Theme tokens a plot's curves take in turn when the block names no colour:
 * every theme (built-in or package) sets them, so curves follow the theme.
 */
const SERIES_TOKENS = [
  '--color-accent',
  '--code-keyword',
  '--code-addition',
  '--code-title',
  '--code-type',
  '--code-string',
] as const;

/** The curve colours the page's theme gives `element` now (empty outside a styled page). */
export function themeSeriesColors(element: Element): string[] {
  const style = element.ownerDocument.defaultView?.getComputedStyle(element);
  if (!style) return [];
  return SERIES_TOKENS.map((token) => style.getPropertyValue(token).trim()).filter((value) => value !== '');
}

/**
 * Takes the drawn charts out of `container` so the next `renderFunctionPlots`
 * draws them again (after a theme switch, in its colours).
 */
export function resetFunctionPlots(container: HTMLElement): void {
  for (const chart of container.querySelectorAll('.function-plot-chart, .plot-parameters, .plot-diagnostics'))
    chart.remove();
  for (const block of container.querySelectorAll(`.function-plot-block[${STATE_ATTRIBUTE}]`))
    block.removeAttribute(STATE_ATTRIBUTE);
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
 * Which curve is which, as the exports show it: each function's colour and
 * its `label:` (else `y = …`). The library draws no legend of its own.
 */
function plotLegend(
  doc: Document,
  plot: FunctionPlot,
  colorOf: (index: number) => string | undefined,
): HTMLElement {
  const legend = doc.createElement('ul');
  legend.className = 'plot-legend';
  plot.expressions.forEach((entry, index) => {
    const item = doc.createElement('li');
    const swatch = doc.createElement('span');
    swatch.className = 'plot-legend-swatch';
    swatch.setAttribute('aria-hidden', 'true');
    const color = colorOf(index);
    if (color) swatch.style.background = color;
    item.append(swatch, entry.label ?? `y = ${entry.expression}`);
    legend.append(item);
  });
  return legend;
}

/**
 * Whether `fn` has a value the chart can draw at any of the `samples` points
 * from `low` to `high`: the same points function-plot samples (its linspace).
 * The library fails on a function with none (it reads the first point of an
 * empty series), so such a function is left out of the drawing.
 */
export function drawsSomewhere(
  fn: (x: number) => number,
  [low, high]: readonly number[],
  samples: number,
): boolean {
  const lo = low ?? 0;
  const step = ((high ?? lo) - lo) / Math.max(1, samples - 1);
  for (let index = 0; index < samples; index++) if (!Number.isNaN(fn(lo + step * index))) return true;
  return false;
}

/** Thrown when no function of a plot has a value in its domain: nothing could be drawn. */
class NothingToDraw extends Error {
  constructor(
    readonly functions: string,
    readonly domain: readonly [number, number],
  ) {
    super(`${functions} has no value to draw between ${domain[0]} and ${domain[1]}.`);
  }
}

/**
 * §12.3 renderInteractive: draws `plot` into `target` with pan and zoom. The
 * functions are our compiled expressions (core/expression), handed to the
 * library as callbacks, so its own string evaluator never sees note text.
 */
export async function renderInteractivePlot(
  plot: FunctionPlot,
  target: HTMLElement,
  labels: Pick<PlotLabels, 'notDrawn'> = DEFAULT_LABELS,
): Promise<RenderHandle> {
  const functionPlot = await loadFunctionPlot();
  let current = plot;
  // The exports fit y to the values when the block names no range; the chart
  // starts there too (not at the library's own -10…10) and keeps it while a
  // slider moves, so a parameter's effect shows as a change of the curve.
  const fittedRange = fitRange(plot);
  const fitWidth = (available: number) => Math.max(200, Math.floor(available || 480));
  let width = fitWidth(target.clientWidth);
  let height = PLOT_HEIGHT;
  let destroyed = false;
  const draw = () => {
    if (destroyed) return;
    target.replaceChildren();
    // Read at each draw: a theme switch (or redraw) picks up the current tokens.
    const palette = themeSeriesColors(target);
    const seriesColor = (index: number): string | undefined =>
      current.expressions[index]?.color ?? palette[index % palette.length];
    // The exports' domain when the block names none, so the preview shows what the file will.
    const domain = current.domain ?? DEFAULT_PLOT_DOMAIN;
    // Fixed, so drawsSomewhere tests the very points the library samples.
    const samples = width * 2;
    const functions = compilePlotFunctions(current);
    const series = functions.map((fn, index) => {
      const color = seriesColor(index);
      return {
        fn: (scope: { x?: number }) => fn(Number(scope.x)),
        graphType: 'polyline' as const,
        nSamples: samples,
        ...(color && { color }),
      };
    });
    const drawable = (range: readonly number[]) =>
      series.filter((_, index) => drawsSomewhere(functions[index]!, range, samples));
    const shown = drawable(domain);
    if (shown.length === 0) {
      const names = current.expressions.map((entry) => `y = ${entry.expression}`).join(', ');
      throw new NothingToDraw(names, domain);
    }
    const yDomain = current.range ?? fittedRange;
    const chart = functionPlot({
      target,
      width,
      height,
      grid: current.axes.grid,
      xAxis: {
        ...(current.axes.xLabel && { label: current.axes.xLabel }),
        domain: [...domain],
      },
      yAxis: {
        ...(current.axes.yLabel && { label: current.axes.yLabel }),
        ...(yDomain && { domain: [...yDomain] }),
      },
      data: shown,
    });
    // Panning or zooming to where a function has no value must not break the chart:
    // each redraw keeps only the functions with a value in the view.
    chart.on('before:draw', () => {
      const view = chart.meta.xScale?.domain();
      if (view) chart.options.data = drawable(view);
    });
    target.append(plotLegend(target.ownerDocument, current, seriesColor));
    const missing = current.expressions.filter((_, index) => !shown.includes(series[index]!));
    if (missing.length > 0) {
      const note = target.ownerDocument.createElement('p');
      note.className = 'plot-warning';
      note.setAttribute('role', 'note');
      note.textContent = labels.notDrawn(
        missing.map((entry) => `y = ${entry.expression}`).join(', '),
        domain[0],
        domain[1],
      );
      target.append(note);
    }
  };
  draw();
  // The chart has a fixed pixel width: follow the container (pane drag, window
  // resize, side panel). Only the width is watched, since the chart sets the height.
  const View = target.ownerDocument.defaultView;
  const observer =
    View && 'ResizeObserver' in View
      ? new View.ResizeObserver((entries) => {
          const next = fitWidth(entries[entries.length - 1]?.contentRect.width ?? 0);
          if (next !== width) {
            width = next;
            draw();
          }
        })
      : undefined;
  observer?.observe(target);
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
      destroyed = true;
      observer?.disconnect();
      // The chart's listeners live on its own SVG nodes; removing them frees everything.
      target.replaceChildren();
    },
  };
}

/** The y range the exports give `plot`, or undefined when its values cannot be computed. */
function fitRange(plot: FunctionPlot): [number, number] | undefined {
  try {
    return plotRange(plot);
  } catch {
    // An expression that fails while evaluated (round() with bad digits) is drawn as the library can.
    return undefined;
  }
}

/**
 * The words of a plot's messages in the user's language (the preview passes
 * translated ones). What the parser says about the block's own text stays as
 * the technical detail under the heading.
 */
export interface PlotLabels {
  /** Accessible names of a parameter's slider and number box. */
  slider: (name: string) => string;
  value: (name: string) => string;
  /** The heading of a block that could not be drawn, where the parser located the problem. */
  failed: (line?: number, column?: number) => string;
  /** No function of the block has a value between `low` and `high`. */
  nothingToDraw: (functions: string, low: number, high: number) => string;
  /** Some functions are left out of a drawn chart. */
  notDrawn: (functions: string, low: number, high: number) => string;
  /** The chart library failed (its own message tells a reader nothing). */
  libraryFailed: string;
  /**
   * A message of the core about the block's text (a mistyped setting, why an
   * expression cannot be read), in the user's language, at `line` of the block
   * when given; the error under a heading that already names the line has none.
   */
  warning: (message: string, line?: number) => string;
}

const DEFAULT_LABELS: PlotLabels = {
  slider: (name) => `Parameter ${name}`,
  value: (name) => `Value of ${name}`,
  failed: (line, column) =>
    `Plot could not be drawn${line !== undefined ? ` (line ${line}${column !== undefined ? `, column ${column}` : ''})` : ''}:`,
  nothingToDraw: (functions, low, high) => `${functions} has no value to draw between ${low} and ${high}.`,
  notDrawn: (functions, low, high) => `Not drawn: ${functions} has no value between ${low} and ${high}.`,
  libraryFailed: 'the chart library failed to draw it.',
  warning: (message, line) => (line === undefined ? message : `Line ${line}: ${message}`),
};

function showError(block: HTMLElement, code: string, heading: string, detail: string): void {
  block.querySelector('.plot-error')?.remove();
  const document = block.ownerDocument;
  const note = document.createElement('p');
  note.className = 'plot-error';
  note.setAttribute('data-error-code', code);
  note.setAttribute('role', 'note');
  const title = document.createElement('span');
  title.className = 'plot-error-title';
  title.textContent = heading;
  // textContent: the detail quotes the note's own text.
  const more = document.createElement('span');
  more.className = 'plot-error-detail';
  more.textContent = detail;
  note.append(title, ' ', more);
  block.append(note);
  block.setAttribute(STATE_ATTRIBUTE, 'failed');
}

/** The block's warnings (a mistyped setting) under its chart, so nothing is ignored silently. */
function showWarnings(
  block: HTMLElement,
  under: Element,
  warnings: ReadonlyArray<{ message: string; line?: number }>,
  labels: PlotLabels,
): void {
  block.querySelector('.plot-diagnostics')?.remove();
  if (warnings.length === 0) return;
  const list = block.ownerDocument.createElement('ul');
  list.className = 'plot-diagnostics';
  list.setAttribute('role', 'note');
  for (const { message, line } of warnings) {
    const item = block.ownerDocument.createElement('li');
    item.textContent = labels.warning(message, line);
    list.append(item);
  }
  under.after(list);
}

/** The slider's range: symmetric around 0, reaching at least twice the declared value. */
export function parameterRange(value: number): { min: number; max: number; step: number } {
  const reach = Math.max(1, Math.abs(value) * 2);
  const power = 10 ** Math.floor(Math.log10(reach));
  const max = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= reach) ?? reach;
  return { min: -max, max, step: max / 100 };
}

interface RememberedPlot {
  key: string;
  /** Position among the preview's plots when last seen. */
  ordinal: number;
  declared: Map<string, number>;
  values: Map<string, number>;
}

interface PlotSurvey {
  blocks: ReadonlyMap<Element, { key: string; ordinal: number }>;
  present: ReadonlySet<string>;
}

/** How many plots' slider values a preview keeps (the oldest go first). */
const REMEMBERED_PLOTS = 64;

/**
 * The values the user slid each plot's parameters to, kept by the preview so a
 * redraw (theme switch, the block re-rendered after an edit) shows them again
 * instead of the declared ones. A plot is found by its source; one whose source
 * changed (its expression edited) by its position, if no plot still on the page
 * has its old source. A parameter whose declared value changed takes the new
 * declaration: the user edited it on purpose.
 */
export class PlotParameterMemory {
  readonly #plots: RememberedPlot[] = [];

  /**
   * Starts a pass over `container`: names each plot block by its source and
   * position, and brings the positions of remembered plots up to date.
   */
  survey(container: HTMLElement): PlotSurvey {
    const seen = new Map<string, number>();
    const blocks = new Map<Element, { key: string; ordinal: number }>();
    for (const [ordinal, block] of Array.from(container.querySelectorAll('.function-plot-block')).entries()) {
      const source = block.querySelector('pre')?.textContent ?? '';
      // Two plots with the same text are still two plots.
      const occurrence = seen.get(source) ?? 0;
      seen.set(source, occurrence + 1);
      const key = `${occurrence}\u0000${source}`;
      blocks.set(block, { key, ordinal });
      const plot = this.#plots.find((candidate) => candidate.key === key);
      if (plot) plot.ordinal = ordinal;
    }
    return { blocks, present: new Set(Array.from(blocks.values(), ({ key }) => key)) };
  }

  /** The live values for a plot about to be drawn (the map the sliders then write to). */
  recall(
    block: Element,
    parameters: ReadonlyArray<{ name: string; value: number }>,
    survey: PlotSurvey,
  ): Map<string, number> {
    const { key, ordinal } = survey.blocks.get(block) ?? { key: '', ordinal: -1 };
    const present = survey.present;
    let plot =
      this.#plots.find((candidate) => candidate.key === key) ??
      this.#plots.find((candidate) => candidate.ordinal === ordinal && !present.has(candidate.key));
    if (plot) this.#plots.splice(this.#plots.indexOf(plot), 1);
    const values = new Map<string, number>();
    for (const { name, value } of parameters) {
      const kept = plot?.declared.get(name) === value ? plot.values.get(name) : undefined;
      values.set(name, kept ?? value);
    }
    plot = { key, ordinal, declared: new Map(parameters.map(({ name, value }) => [name, value])), values };
    this.#plots.push(plot);
    if (this.#plots.length > REMEMBERED_PLOTS) this.#plots.shift();
    return values;
  }
}

/**
 * A slider and a number box per declared parameter, under the chart. Moving
 * either redraws the chart with the new value; the note's text (and so every
 * export) keeps the declared values.
 */
function withValues(plot: FunctionPlot, values: ReadonlyMap<string, number>): FunctionPlot {
  return {
    ...plot,
    parameters: (plot.parameters ?? []).map(({ name, value }) => ({
      name,
      value: values.get(name) ?? value,
    })),
  };
}

function parameterControls(
  block: HTMLElement,
  plot: FunctionPlot,
  values: Map<string, number>,
  handle: RenderHandle,
  labels: Pick<PlotLabels, 'slider' | 'value'>,
): HTMLElement {
  const document = block.ownerDocument;
  const redraw = () => void handle.update(withValues(plot, values));
  const group = document.createElement('div');
  group.className = 'plot-parameters';
  group.setAttribute('role', 'group');
  for (const { name, value: declared } of plot.parameters ?? []) {
    const value = values.get(name) ?? declared;
    const row = document.createElement('div');
    row.className = 'plot-parameter';
    row.setAttribute('data-parameter', name);
    const caption = document.createElement('span');
    caption.className = 'plot-parameter-name';
    caption.textContent = name;
    // The range follows the declaration, widened when a typed value lies outside it.
    const declaredRange = parameterRange(declared);
    const { min, max, step } =
      value < declaredRange.min || value > declaredRange.max ? parameterRange(value) : declaredRange;
    const slider = document.createElement('input');
    Object.assign(slider, { type: 'range', min: String(min), max: String(max), step: String(step) });
    slider.value = String(value);
    slider.setAttribute('aria-label', labels.slider(name));
    const box = document.createElement('input');
    Object.assign(box, { type: 'number', step: 'any' });
    box.value = String(value);
    box.setAttribute('aria-label', labels.value(name));
    slider.addEventListener('input', () => {
      values.set(name, Number(slider.value));
      box.value = slider.value;
      redraw();
    });
    box.addEventListener('input', () => {
      const typed = Number(box.value);
      // A half-typed number ("-", "1e") keeps the last drawn value.
      if (box.value.trim() === '' || !Number.isFinite(typed)) return;
      values.set(name, typed);
      slider.value = String(typed);
      redraw();
    });
    row.append(caption, slider, box);
    group.append(row);
  }
  return group;
}

/**
 * Draws the `.function-plot-block` placeholders in `container`. A block that does
 * not parse keeps its source and gains a located message. Returns a function that
 * destroys every chart drawn (call it before the preview re-renders or unmounts).
 */
export async function renderFunctionPlots(
  container: HTMLElement,
  options: {
    signal?: AbortSignal;
    /** Words in the user's language; any not given are English. */
    labels?: Partial<PlotLabels>;
    /** Where the caller keeps each drawn chart by its block, to free it once the block leaves. */
    drawn?: Map<HTMLElement, RenderHandle>;
    /** The caller's memory of slider values, so a redraw shows what the user slid to. */
    memory?: PlotParameterMemory;
  } = {},
): Promise<() => void> {
  const memory = options.memory ?? new PlotParameterMemory();
  const labels: PlotLabels = { ...DEFAULT_LABELS, ...options.labels };
  const survey = memory.survey(container);
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
        labels.failed(error?.line, error?.column),
        error ? labels.warning(error.message) : '',
      );
      continue;
    }
    const target = block.ownerDocument.createElement('div');
    target.className = 'function-plot-chart';
    block.prepend(target);
    const values = memory.recall(block, parsed.plot.parameters ?? [], survey);
    // Fitted at the declared values, as the exports are, whatever the sliders were left at.
    const range = parsed.plot.range ?? fitRange(parsed.plot);
    const plot = range ? { ...parsed.plot, range } : parsed.plot;
    try {
      const handle = await renderInteractivePlot(withValues(plot, values), target, labels);
      if (options.signal?.aborted) {
        // A newer pass draws this block again.
        handle.destroy();
        target.remove();
        break;
      }
      handles.push(handle);
      options.drawn?.set(block, handle);
      const controls =
        (parsed.plot.parameters ?? []).length > 0
          ? parameterControls(block, plot, values, handle, labels)
          : undefined;
      if (controls) target.after(controls);
      showWarnings(
        block,
        controls ?? target,
        parsed.diagnostics.filter((item) => item.severity === 'warning'),
        labels,
      );
      block.setAttribute(STATE_ATTRIBUTE, 'rendered');
    } catch (cause) {
      target.remove();
      // Only our own message: the library's (a TypeError from inside d3) tells a reader nothing.
      showError(
        block,
        'FUNCTION_PLOT_RENDER_FAILED',
        labels.failed(),
        cause instanceof NothingToDraw
          ? labels.nothingToDraw(cause.functions, cause.domain[0], cause.domain[1])
          : labels.libraryFailed,
      );
    }
  }
  return destroyAll;
}
