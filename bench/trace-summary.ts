// A Chromium trace (browser.startTracing) summed per event name on the busiest
// renderer main thread: where the milliseconds of a typed key go (style, layout,
// paint, hit tests, script), per key.

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: unlike `dur`, not stretched when a busy machine deschedules the thread. */
  tdur?: number;
  args?: { name?: string };
}

/** Events whose time is worth a row; nested ones (Layout in an EventDispatch) count in both. */
const NAMES = [
  'RunTask',
  'EventDispatch',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
  'RunMicrotasks',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'PaintImage',
  'Layerize',
  'UpdateLayer',
  'Commit',
  'HitTest',
  'IntersectionObserverController::computeIntersections',
  'ParseHTML',
  'MinorGC',
  'MajorGC',
  'V8.GC_SCAVENGER',
];

export interface TraceRow {
  name: string;
  /** Inclusive milliseconds per key, thread time where the trace has it. */
  msPerKey: number;
  /** Events per key. */
  countPerKey: number;
}

export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8'];

/** Rows for the renderer main thread that was busiest while the trace ran, per typed key. */
export function summarizeTrace(json: string, keys: number): TraceRow[] {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mainThreads = new Set(
    events
      .filter(
        (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const busy = new Map<string, number>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph === 'X' && event.name === 'RunTask' && mainThreads.has(thread))
      busy.set(thread, (busy.get(thread) ?? 0) + (event.tdur ?? event.dur ?? 0));
  }
  const busiest = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!busiest) return [];
  const totals = new Map<string, { us: number; count: number }>();
  const open = new Map<string, number[]>();
  const add = (name: string, us: number) => {
    const total = totals.get(name) ?? { us: 0, count: 0 };
    total.us += us;
    total.count += 1;
    totals.set(name, total);
  };
  for (const event of events) {
    if (`${event.pid}:${event.tid}` !== busiest || !NAMES.includes(event.name)) continue;
    if (event.ph === 'X') add(event.name, event.tdur ?? event.dur ?? 0);
    else if (event.ph === 'B') open.set(event.name, [...(open.get(event.name) ?? []), event.ts]);
    else if (event.ph === 'E') {
      const starts = open.get(event.name);
      const start = starts?.pop();
      if (start !== undefined) add(event.name, event.ts - start);
    }
  }
  return NAMES.filter((name) => totals.has(name)).map((name) => ({
    name,
    msPerKey: totals.get(name)!.us / 1000 / keys,
    countPerKey: totals.get(name)!.count / keys,
  }));
}

/** Two summaries side by side (ours, the floor's), one line per event name. */
export function formatTraceRows(ours: TraceRow[], floor: TraceRow[]): string {
  const names = [...new Set([...ours.map((row) => row.name), ...floor.map((row) => row.name)])];
  const cell = (rows: TraceRow[], name: string) => {
    const row = rows.find((entry) => entry.name === name);
    return row ? `${row.msPerKey.toFixed(2)} ms ×${row.countPerKey.toFixed(1)}` : '-';
  };
  const header = 'event (CPU per key, inclusive)';
  const width = Math.max(header.length, ...names.map((name) => name.length));
  return [
    `    ${header.padEnd(width)}  app                  plain textarea`,
    ...names.map((name) => `    ${name.padEnd(width)}  ${cell(ours, name).padEnd(20)} ${cell(floor, name)}`),
  ].join('\n');
}
