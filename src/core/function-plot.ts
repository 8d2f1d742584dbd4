import { editDistance } from './edit-distance';
import type {
  FunctionPlot,
  FunctionPlotDiagnostic,
  FunctionPlotParseResult,
  StaticRenderResult,
  StaticRenderTheme,
} from '../contracts/exports';
import { contentHash } from './content-hash';
import {
  compileExpression,
  evaluateExpression,
  EXPRESSION_CONSTANTS,
  EXPRESSION_FUNCTIONS,
  ExpressionError,
} from './expression';
import { formatPlotMessage, type PlotMessageCode, type PlotMessageParams } from './function-plot-messages';

/**
 * ```` ```function-plot ```` blocks. One setting or one function per line:
 *
 *     y = sin(x) | label: sine | color: #2563eb
 *     x^2 / 10
 *     domain: -6.28, 6.28
 *     range: -2, 2
 *     x-label: t
 *     y-label: amplitude
 *     grid: false
 *     param: a = 2, k = 0.5
 *
 * A function line is an expression in `x` and the declared parameters,
 * optionally written `y = ...` or `f(x) = ...`. A `param:` line may come before
 * or after the functions that use it. `#` starts a comment line. Errors carry 1-based line and column
 * within the block.
 *
 * A `|` starts an option only where an option name and its colon follow
 * (`| label:`, `| color:`, or a slip such as `| lable:`); every other bar is
 * the expression's `|x|` or part of a label (`label: 幅频 |G(jw)|`). `domain:`
 * and `range:` bounds are constant expressions (`0, 2pi`, `-pi/2, pi/2`).
 * Full-width punctuation a Chinese input method types (`（` `）` `：` `，` `｜`)
 * is read as its ASCII form; labels keep the characters as written.
 */

export const FUNCTION_PLOT_PARSE_FAILED = 'FUNCTION_PLOT_PARSE_FAILED';
export const FUNCTION_PLOT_EXPRESSION_UNSAFE = 'FUNCTION_PLOT_EXPRESSION_UNSAFE';
export const FUNCTION_PLOT_RENDER_FAILED = 'FUNCTION_PLOT_RENDER_FAILED';

export const MAX_PLOT_SOURCE_LENGTH = 10_000;
export const MAX_PLOT_EXPRESSIONS = 16;
export const DEFAULT_PLOT_DOMAIN: [number, number] = [-10, 10];
export const MAX_PLOT_PARAMETERS = 16;
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const PARAMETER_VALUE = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;
// Names that would shadow the grammar or the function line's own `y =` / `x`.
const RESERVED_NAMES = new Set(['x', 'y', 'f', ...EXPRESSION_FUNCTIONS, ...EXPRESSION_CONSTANTS]);
// Never legal, even though the evaluator keeps scopes in Maps: refusing them keeps
// the model free of keys that mean something to JavaScript objects.
const UNSAFE_NAMES = new Set(['constructor', 'prototype', 'globalthis', 'window', 'eval', 'function']);
const PARAMETER_KEYS = new Set(['param', 'params', 'parameter', 'parameters']);

const SETTING = /^([A-Za-z][A-Za-z-]*)\s*:\s*(.*)$/;
const FUNCTION_PREFIX = /^\s*(?:y|f\s*\(\s*x\s*\))\s*=\s*/;
// Colours are written into SVG attributes: only forms that cannot carry markup or url().
const SAFE_COLOR = /^(?:#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$/;
const MAX_LABEL_LENGTH = 120;

type Settings = Pick<FunctionPlot, 'domain' | 'range'> & { axes: FunctionPlot['axes'] };

/** `message`: what is wrong, as function-plot-messages words it (the UI translates it back). */
function diagnostic(
  severity: FunctionPlotDiagnostic['severity'],
  code: string,
  message: PlotMessageCode,
  params: PlotMessageParams,
  line: number,
  column: number,
): FunctionPlotDiagnostic {
  return { severity, code, message: formatPlotMessage(message, params), line, column };
}

/**
 * A Chinese input method types the full-width forms of ASCII (U+FF01–U+FF5E:
 * `（` `）` `：` `，` `－` `｜`, full-width digits and letters), the ideographic
 * comma `、` and space. Each maps to one ASCII character, so a column in the
 * result is the same column in the line as written.
 */
export function normalizePlotLine(line: string): string {
  return line.replace(/[\uFF01-\uFF5E\u3000\u3001]/g, (character) => {
    if (character === '\u3000') return ' ';
    if (character === '\u3001') return ',';
    return String.fromCharCode(character.charCodeAt(0) - 0xfee0);
  });
}

/** Where a bar in `line` starts an option: a name and a colon follow it. */
const OPTION_START = /\|(?=\s*[A-Za-z][A-Za-z-]*\s*:)/g;

/** `line` cut at its option bars: the expression part, then each option with its start offset. */
function splitOptions(line: string): {
  expressionPart: string;
  options: Array<{ text: string; start: number }>;
} {
  const bars = Array.from(line.matchAll(OPTION_START), (match) => match.index);
  const expressionPart = line.slice(0, bars[0] ?? line.length);
  const options = bars.map((bar, index) => ({
    text: line.slice(bar + 1, bars[index + 1] ?? line.length),
    start: bar + 1,
  }));
  return { expressionPart, options };
}

type IntervalResult =
  { interval: [number, number] } | { error: ExpressionError; offset: number } | { invalid: true };

/**
 * `value` of a `domain:`/`range:` line (`-5, 5`, `[0, 2pi]`, `-pi/2, pi/2`): two
 * constant expressions of the plot's one evaluator, low before high. `offset` of
 * an error is where its bound starts in `value`.
 */
function parseInterval(value: string): IntervalResult {
  const bracketed = /^(\s*\[?)(.*?)\]?\s*$/s.exec(value);
  const inner = bracketed?.[2] ?? value;
  const innerStart = bracketed?.[1]?.length ?? 0;
  // Split at commas outside brackets, so `max(1, 2)` stays one bound.
  const bounds: Array<{ text: string; start: number }> = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index <= inner.length; index++) {
    const character = inner[index];
    if (character === '(') depth += 1;
    else if (character === ')') depth -= 1;
    else if (index === inner.length || (character === ',' && depth === 0)) {
      bounds.push({ text: inner.slice(start, index), start: innerStart + start });
      start = index + 1;
    }
  }
  if (bounds.length !== 2 || bounds.some((bound) => bound.text.trim() === '')) return { invalid: true };
  const values: number[] = [];
  for (const bound of bounds) {
    try {
      values.push(evaluateExpression(bound.text));
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      return { error, offset: bound.start };
    }
  }
  const [low = NaN, high = NaN] = values;
  if (!Number.isFinite(low) || !Number.isFinite(high) || low >= high) return { invalid: true };
  return { interval: [low, high] };
}

function parseBoolean(value: string): boolean | undefined {
  const normalized = value.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(normalized)) return true;
  if (['false', 'no', 'off'].includes(normalized)) return false;
  return undefined;
}

type Parameter = NonNullable<FunctionPlot['parameters']>[number];

/**
 * `value` of a `param:` line (`a = 2, b = -0.5`) to parameters; `column` is the
 * 1-based column where `value` starts in its line.
 */
function parseParameters(
  value: string,
  line: number,
  column: number,
  declared: Parameter[],
  diagnostics: FunctionPlotDiagnostic[],
): void {
  let offset = 0;
  for (const part of value.split(',')) {
    const at = column + offset + (part.length - part.trimStart().length);
    offset += part.length + 1;
    const match = /^\s*([^=\s]*)\s*=\s*(.*?)\s*$/.exec(part);
    const name = match?.[1] ?? part.trim();
    const error = (code: string, message: PlotMessageCode, params: PlotMessageParams = { name }) =>
      diagnostics.push(diagnostic('error', code, message, params, line, at));
    if (!match || name === '') {
      error(FUNCTION_PLOT_PARSE_FAILED, 'parameterSyntax', {});
    } else if (UNSAFE_NAMES.has(name.toLowerCase()) || name.startsWith('_')) {
      error(FUNCTION_PLOT_EXPRESSION_UNSAFE, 'parameterUnsafe');
    } else if (!PARAMETER_NAME.test(name)) {
      error(FUNCTION_PLOT_PARSE_FAILED, 'parameterName');
    } else if (RESERVED_NAMES.has(name.toLowerCase())) {
      error(FUNCTION_PLOT_PARSE_FAILED, 'parameterReserved');
    } else if (declared.some((item) => item.name === name)) {
      error(FUNCTION_PLOT_PARSE_FAILED, 'parameterTwice');
    } else if (!PARAMETER_VALUE.test(match[2] ?? '') || !Number.isFinite(Number(match[2]))) {
      error(FUNCTION_PLOT_PARSE_FAILED, 'parameterValue', { name, value: match[2] ?? '' });
    } else if (declared.length >= MAX_PLOT_PARAMETERS) {
      error(FUNCTION_PLOT_EXPRESSION_UNSAFE, 'tooManyParameters', { max: MAX_PLOT_PARAMETERS });
    } else {
      declared.push({ name, value: Number(match[2]) });
    }
  }
}

/** Settings a line may name, as written in the docs (`x-label`, not `xlabel`). */
const KNOWN_SETTINGS = ['domain', 'range', 'x-label', 'y-label', 'grid', 'param'];
const KNOWN_OPTIONS = ['label', 'color'];

/**
 * The known name `typed` is most likely a slip of (`domian` → `domain`), or
 * undefined when none is close enough to be worth suggesting.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/-/g, '');
  const word = plain(typed);
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(word, plain(name));
    if (distance <= Math.min(2, Math.floor(plain(name).length / 2)) && (!best || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

/** `option` as read (ASCII punctuation), `shown` as the user wrote it. */
function unknownOption(
  option: string,
  shown: string,
): { message: PlotMessageCode; params: PlotMessageParams } {
  const written = shown.trim();
  const name = /^\s*([A-Za-z][A-Za-z-]*)\s*:/.exec(option)?.[1];
  const meant = name === undefined ? undefined : closestName(name, KNOWN_OPTIONS);
  return meant
    ? { message: 'unknownOptionGuess', params: { name: written, meant } }
    : { message: 'unknownOption', params: { name: written } };
}

/** The names an expression of `plot` may use: `x` and its parameters. */
export function plotVariables(plot: Pick<FunctionPlot, 'parameters'>): string[] {
  return ['x', ...(plot.parameters ?? []).map((parameter) => parameter.name)];
}

/**
 * Each expression of `plot` as a function of `x`, its parameters bound, compiled
 * by the one safe evaluator. Throws ExpressionError for a plot that did not come
 * from parseFunctionPlot and does not compile.
 */
export function compilePlotFunctions(plot: FunctionPlot): Array<(x: number) => number> {
  const variables = plotVariables(plot);
  const scope: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const parameter of plot.parameters ?? []) scope[parameter.name] = parameter.value;
  return plot.expressions.map((entry) => {
    const compiled = compileExpression(entry.expression, { variables });
    return (x: number) => compiled.evaluate({ ...scope, x });
  });
}

/** The block's text to a FunctionPlot, or diagnostics saying where it is wrong. */
export function parseFunctionPlot(source: string): FunctionPlotParseResult {
  const diagnostics: FunctionPlotDiagnostic[] = [];
  if (source.length > MAX_PLOT_SOURCE_LENGTH) {
    return {
      diagnostics: [
        diagnostic(
          'error',
          FUNCTION_PLOT_EXPRESSION_UNSAFE,
          'plotTooLong',
          { max: MAX_PLOT_SOURCE_LENGTH },
          1,
          1,
        ),
      ],
    };
  }
  const settings: Settings = { axes: { grid: true } };
  const expressions: FunctionPlot['expressions'] = [];
  const written = source.split(/\r\n|\r|\n/);
  // Read as ASCII; `written` keeps the user's characters for the labels.
  const lines = written.map(normalizePlotLine);
  const parameters: Parameter[] = [];
  const settingOf = (raw: string, asWritten: string) => {
    const text = raw.trim();
    const setting = SETTING.exec(text);
    if (!setting || FUNCTION_PREFIX.test(text)) return undefined;
    const value = setting[2] ?? '';
    const indent = raw.length - raw.trimStart().length;
    const column = indent + text.length - value.length + 1;
    return {
      name: setting[1] ?? '',
      key: (setting[1] ?? '').toLowerCase().replace(/-/g, ''),
      value,
      writtenValue: asWritten.slice(column - 1, column - 1 + value.length),
      indent,
      column,
    };
  };
  // Parameters first, so a function line may use one declared below it.
  lines.forEach((raw, index) => {
    const setting = settingOf(raw, written[index] ?? raw);
    if (setting && PARAMETER_KEYS.has(setting.key)) {
      parseParameters(setting.value, index + 1, setting.column, parameters, diagnostics);
    }
  });
  const variables = plotVariables({ parameters });

  lines.forEach((raw, index) => {
    const line = index + 1;
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) return;
    const indent = raw.length - raw.trimStart().length;
    const asWritten = written[index] ?? raw;
    const setting = settingOf(raw, asWritten);
    if (setting) {
      const { key, value, column } = setting;
      if (PARAMETER_KEYS.has(key)) return;
      switch (key) {
        case 'domain':
        case 'range': {
          const result = parseInterval(value);
          if ('interval' in result) settings[key] = result.interval;
          else if ('error' in result) {
            const { error, offset } = result;
            diagnostics.push(
              diagnostic(
                'error',
                error.kind === 'unsafe' ? FUNCTION_PLOT_EXPRESSION_UNSAFE : FUNCTION_PLOT_PARSE_FAILED,
                error.code,
                error.params,
                line,
                column + offset + error.position,
              ),
            );
          } else {
            diagnostics.push(
              diagnostic('error', FUNCTION_PLOT_PARSE_FAILED, 'interval', { setting: key }, line, column),
            );
          }
          return;
        }
        case 'xlabel':
        case 'ylabel':
          settings.axes[key === 'xlabel' ? 'xLabel' : 'yLabel'] = setting.writtenValue.slice(
            0,
            MAX_LABEL_LENGTH,
          );
          return;
        case 'grid': {
          const grid = parseBoolean(value);
          if (grid === undefined) {
            diagnostics.push(diagnostic('error', FUNCTION_PLOT_PARSE_FAILED, 'grid', {}, line, column));
          } else settings.axes.grid = grid;
          return;
        }
        default: {
          const meant = closestName(key, KNOWN_SETTINGS);
          diagnostics.push(
            diagnostic(
              'warning',
              FUNCTION_PLOT_PARSE_FAILED,
              meant ? 'unknownSettingGuess' : 'unknownSetting',
              meant ? { name: setting.name, meant } : { name: setting.name },
              line,
              indent + 1,
            ),
          );
          return;
        }
      }
    }

    const { expressionPart, options } = splitOptions(raw);
    const prefix = FUNCTION_PREFIX.exec(expressionPart);
    const expressionStart = prefix
      ? prefix[0].length
      : expressionPart.length - expressionPart.trimStart().length;
    const expression = expressionPart.slice(expressionStart).trimEnd();
    if (expressions.length >= MAX_PLOT_EXPRESSIONS) {
      diagnostics.push(
        diagnostic(
          'error',
          FUNCTION_PLOT_EXPRESSION_UNSAFE,
          'tooManyFunctions',
          { max: MAX_PLOT_EXPRESSIONS },
          line,
          1,
        ),
      );
      return;
    }
    try {
      compileExpression(expression, { variables });
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      diagnostics.push(
        diagnostic(
          'error',
          error.kind === 'unsafe' ? FUNCTION_PLOT_EXPRESSION_UNSAFE : FUNCTION_PLOT_PARSE_FAILED,
          // The code, not error.message: that one repeats the position ("at 4") the column already gives.
          error.code,
          error.params,
          line,
          expressionStart + Math.min(error.position, expression.length) + 1,
        ),
      );
      return;
    }
    const entry: FunctionPlot['expressions'][number] = { expression };
    for (const { text: option, start } of options) {
      const match = /^(\s*(label|color)\s*:\s*)(.*?)\s*$/i.exec(option);
      const name = match?.[2]?.toLowerCase();
      const value = match?.[3] ?? '';
      const valueStart = start + (match?.[1]?.length ?? 0);
      if (name === 'label')
        entry.label = asWritten.slice(valueStart, valueStart + value.length).slice(0, MAX_LABEL_LENGTH);
      else if (name === 'color' && SAFE_COLOR.test(value)) entry.color = value;
      else {
        const { message, params } =
          name === 'color'
            ? { message: 'color' as const, params: { value } }
            : unknownOption(option, asWritten.slice(start, start + option.length));
        diagnostics.push(diagnostic('warning', FUNCTION_PLOT_PARSE_FAILED, message, params, line, start + 1));
      }
    }
    expressions.push(entry);
  });

  if (expressions.length === 0 && !diagnostics.some((item) => item.severity === 'error')) {
    diagnostics.push(diagnostic('error', FUNCTION_PLOT_PARSE_FAILED, 'noFunction', {}, 1, 1));
  }
  if (diagnostics.some((item) => item.severity === 'error')) return { diagnostics };
  const plot: FunctionPlot = { version: 1, expressions, axes: settings.axes };
  if (settings.domain) plot.domain = settings.domain;
  if (settings.range) plot.range = settings.range;
  if (parameters.length > 0) plot.parameters = parameters;
  return { plot, diagnostics };
}

// ---------------------------------------------------------------------------
// Sampling and the static SVG
// ---------------------------------------------------------------------------

export interface PlotSeries {
  expression: string;
  label: string;
  color: string;
  /** Runs of finite points; a gap (a pole, a NaN) starts a new run. */
  segments: Array<Array<[number, number]>>;
}

export interface SampledPlot {
  domain: [number, number];
  range: [number, number];
  series: PlotSeries[];
}

const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#db2777', '#4b5563'];

function autoRange(values: number[]): [number, number] {
  if (values.length === 0) return [-1, 1];
  const sorted = [...values].sort((a, b) => a - b);
  // Clip the outer 2 % so a pole (tan, 1/x) does not flatten everything else.
  const low = sorted[Math.floor(sorted.length * 0.02)] ?? -1;
  const high = sorted[Math.ceil(sorted.length * 0.98) - 1] ?? 1;
  if (high - low < 1e-9) return [low - 1, high + 1];
  const pad = (high - low) * 0.08;
  return [low - pad, high + pad];
}

/** Samples every function across the domain (`samples` points each). */
export function samplePlot(plot: FunctionPlot, samples = 400): SampledPlot {
  const domain = plot.domain ?? DEFAULT_PLOT_DOMAIN;
  const compiled = compilePlotFunctions(plot);
  const allValues: number[] = [];
  const raw = compiled.map((fn) => {
    const points: Array<[number, number]> = [];
    for (let index = 0; index <= samples; index++) {
      const x = domain[0] + ((domain[1] - domain[0]) * index) / samples;
      const y = fn(x);
      points.push([x, y]);
      if (Number.isFinite(y)) allValues.push(y);
    }
    return points;
  });
  const range = plot.range ?? autoRange(allValues);
  const span = range[1] - range[0];
  const series = raw.map((points, index): PlotSeries => {
    const entry = plot.expressions[index] ?? { expression: '' };
    const segments: PlotSeries['segments'] = [];
    let current: Array<[number, number]> = [];
    let previous: number | undefined;
    for (const [x, y] of points) {
      // A jump across far more than the visible range is a pole, not a steep line.
      const jump = previous !== undefined && Math.abs(y - previous) > span * 4;
      if (!Number.isFinite(y) || jump) {
        if (current.length > 1) segments.push(current);
        current = [];
      }
      if (Number.isFinite(y)) current.push([x, y]);
      previous = Number.isFinite(y) ? y : undefined;
    }
    if (current.length > 1) segments.push(current);
    return {
      expression: entry.expression,
      label: entry.label ?? `y = ${entry.expression}`,
      color:
        entry.color && SAFE_COLOR.test(entry.color)
          ? entry.color
          : (PALETTE[index % PALETTE.length] ?? '#2563eb'),
      segments,
    };
  });
  return { domain, range, series };
}

/**
 * The y range every export draws `plot` across: its `range:`, else one fitted to
 * its values over the domain. The preview starts from the same, so it shows what the file will.
 */
export function plotRange(plot: FunctionPlot): [number, number] {
  return plot.range ?? samplePlot(plot).range;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Round tick values for an axis from `low` to `high`: about `target` steps of
 * 1, 2 or 5 times a power of ten. Shared by the SVG plot (HTML, DOCX) and the
 * PDF's, so every export numbers its axes alike.
 */
export function plotTicks([low, high]: readonly [number, number], target: number): number[] {
  const raw = (high - low) / target;
  if (!(raw > 0) || !Number.isFinite(raw)) return [];
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const step = (fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10) * power;
  const result: number[] = [];
  for (let value = Math.ceil(low / step) * step; value <= high + step * 1e-9; value += step) {
    result.push(Math.abs(value) < step * 1e-9 ? 0 : value);
  }
  return result;
}

export function formatTick(value: number): string {
  return Number(value.toPrecision(6)).toString();
}

const THEMES: Record<StaticRenderTheme, { background: string; axis: string; grid: string; text: string }> = {
  light: { background: '#ffffff', axis: '#374151', grid: '#e5e7eb', text: '#111827' },
  dark: { background: '#111827', axis: '#d1d5db', grid: '#374151', text: '#f9fafb' },
};

export interface PlotSvgOptions {
  theme?: StaticRenderTheme;
  width?: number;
  height?: number;
}

/**
 * A plot as a self-contained SVG. Safe by construction: every string from the note
 * is XML-escaped, colours are checked against a closed pattern, and the document
 * has no script, style, link or foreign content.
 */
export function renderFunctionPlotSvg(plot: FunctionPlot, options: PlotSvgOptions = {}): StaticRenderResult {
  const width = Math.round(Math.min(Math.max(options.width ?? 640, 160), 4096));
  const height = Math.round(Math.min(Math.max(options.height ?? 400, 120), 4096));
  const theme = THEMES[options.theme ?? 'light'];
  const warnings: string[] = [];
  const sampled = samplePlot(plot);
  const margin = { left: 56, right: 16, top: 16, bottom: 44 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const [x0, x1] = sampled.domain;
  const [y0, y1] = sampled.range;
  const sx = (x: number): number => margin.left + ((x - x0) / (x1 - x0)) * plotWidth;
  const sy = (y: number): number => margin.top + (1 - (y - y0) / (y1 - y0)) * plotHeight;
  const clampY = (y: number): number => Math.min(Math.max(sy(y), -height), 2 * height);
  const n = (value: number): string => (Math.round(value * 100) / 100).toString();

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" class="function-plot">`,
  );
  const title = sampled.series.map((series) => series.label).join(', ');
  parts.push(`<title>${escapeXml(title)}</title>`);
  parts.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="${theme.background}"/>`);
  const xTicks = plotTicks(sampled.domain, 8);
  const yTicks = plotTicks(sampled.range, 6);
  if (plot.axes.grid) {
    const grid = [
      ...xTicks.map((x) => `M${n(sx(x))} ${margin.top}V${margin.top + plotHeight}`),
      ...yTicks.map((y) => `M${margin.left} ${n(sy(y))}H${margin.left + plotWidth}`),
    ].join('');
    parts.push(`<path d="${grid}" stroke="${theme.grid}" stroke-width="1" fill="none"/>`);
  }
  // Axes through zero when zero is visible, else along the frame.
  const axisY = y0 <= 0 && y1 >= 0 ? sy(0) : margin.top + plotHeight;
  const axisX = x0 <= 0 && x1 >= 0 ? sx(0) : margin.left;
  parts.push(
    `<path d="M${margin.left} ${n(axisY)}H${margin.left + plotWidth}M${n(axisX)} ${margin.top}V${margin.top + plotHeight}" stroke="${theme.axis}" stroke-width="1.2" fill="none"/>`,
  );
  const font = `font-family="sans-serif" font-size="11" fill="${theme.text}"`;
  for (const x of xTicks) {
    parts.push(
      `<text x="${n(sx(x))}" y="${margin.top + plotHeight + 16}" text-anchor="middle" ${font}>${formatTick(x)}</text>`,
    );
  }
  for (const y of yTicks) {
    parts.push(
      `<text x="${margin.left - 6}" y="${n(sy(y) + 4)}" text-anchor="end" ${font}>${formatTick(y)}</text>`,
    );
  }
  if (plot.axes.xLabel) {
    parts.push(
      `<text x="${n(margin.left + plotWidth / 2)}" y="${height - 6}" text-anchor="middle" ${font}>${escapeXml(plot.axes.xLabel)}</text>`,
    );
  }
  if (plot.axes.yLabel) {
    parts.push(
      `<text x="12" y="${n(margin.top + plotHeight / 2)}" text-anchor="middle" transform="rotate(-90 12 ${n(margin.top + plotHeight / 2)})" ${font}>${escapeXml(plot.axes.yLabel)}</text>`,
    );
  }
  // Several plots share one HTML page: the clip id must not collide between them.
  const clipId = `plot-clip-${contentHash(`${JSON.stringify(plot)}|${width}|${height}`)}`;
  parts.push(
    `<defs><clipPath id="${clipId}"><rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}"/></clipPath></defs>`,
  );
  parts.push(`<g clip-path="url(#${clipId})">`);
  for (const series of sampled.series) {
    if (series.segments.length === 0) warnings.push(`${series.label} has no finite value in the domain.`);
    const d = series.segments
      .map((segment) =>
        segment.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${n(sx(x))} ${n(clampY(y))}`).join(''),
      )
      .join('');
    if (d) parts.push(`<path d="${d}" stroke="${series.color}" stroke-width="2" fill="none"/>`);
  }
  parts.push('</g>');
  sampled.series.forEach((series, index) => {
    const y = margin.top + 14 + index * 16;
    const x = margin.left + 10;
    parts.push(`<path d="M${x} ${y - 4}h16" stroke="${series.color}" stroke-width="2"/>`);
    parts.push(`<text x="${x + 22}" y="${y}" ${font}>${escapeXml(series.label)}</text>`);
  });
  parts.push('</svg>');
  return { mimeType: 'image/svg+xml', content: parts.join(''), width, height, warnings };
}
