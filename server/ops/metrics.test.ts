import { describe, expect, it } from 'vitest';
import { createJsonLogger } from './logger';
import { LatencyWindow } from './metrics';

describe('LatencyWindow', () => {
  it('gives nearest-rank percentiles', () => {
    const window = new LatencyWindow();
    for (let i = 1; i <= 100; i++) window.add(i);
    expect(window.percentile(50)).toBe(50);
    expect(window.percentile(99)).toBe(99);
    expect(new LatencyWindow().percentile(50)).toBeNull();
  });

  it('keeps only the most recent samples', () => {
    const window = new LatencyWindow(3);
    for (const value of [100, 100, 100, 1, 2, 3]) window.add(value);
    expect(window.count).toBe(3);
    expect(window.percentile(100)).toBe(3);
  });
});

describe('createJsonLogger', () => {
  it('writes one JSON line per event at or above the level', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'info', write: (l) => lines.push(l), now: () => new Date(0) });
    logger.debug('hidden');
    logger.info('task_done', { request_id: 7, ms: 12 });
    expect(lines).toEqual([
      '{"time":"1970-01-01T00:00:00.000Z","level":"info","event":"task_done","request_id":7,"ms":12}\n',
    ]);
  });
});
