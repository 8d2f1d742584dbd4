import { describe, expect, it } from 'vitest';
import { formatTraceRows, summarizeTrace } from './trace-summary';

const meta = (pid: number, tid: number, name: string) => ({
  name: 'thread_name',
  ph: 'M',
  pid,
  tid,
  ts: 0,
  args: { name },
});

describe('summarizeTrace', () => {
  it('sums complete and begin/end events per key on the busiest renderer main thread only', () => {
    const trace = {
      traceEvents: [
        meta(1, 10, 'CrRendererMain'),
        meta(2, 20, 'CrRendererMain'),
        meta(2, 21, 'Compositor'),
        { name: 'RunTask', ph: 'X', pid: 1, tid: 10, ts: 0, dur: 1000 },
        { name: 'RunTask', ph: 'X', pid: 2, tid: 20, ts: 0, dur: 8000 },
        { name: 'Layout', ph: 'X', pid: 2, tid: 20, ts: 100, dur: 3000 },
        { name: 'Paint', ph: 'B', pid: 2, tid: 20, ts: 4000 },
        { name: 'Paint', ph: 'E', pid: 2, tid: 20, ts: 6000 },
        { name: 'Layout', ph: 'X', pid: 1, tid: 10, ts: 0, dur: 900 },
        { name: 'Paint', ph: 'X', pid: 2, tid: 21, ts: 0, dur: 5000 },
        { name: 'SomethingElse', ph: 'X', pid: 2, tid: 20, ts: 0, dur: 5000 },
      ],
    };
    const rows = summarizeTrace(JSON.stringify(trace), 2);
    expect(rows).toEqual([
      { name: 'RunTask', msPerKey: 4, countPerKey: 0.5 },
      { name: 'Layout', msPerKey: 1.5, countPerKey: 0.5 },
      { name: 'Paint', msPerKey: 1, countPerKey: 0.5 },
    ]);
    expect(formatTraceRows(rows, [])).toContain('Layout');
  });

  it('finds nothing in a trace without a renderer main thread', () => {
    expect(summarizeTrace(JSON.stringify([meta(1, 1, 'CrBrowserMain')]), 1)).toEqual([]);
  });
});
