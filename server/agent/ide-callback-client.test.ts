import { describe, expect, it } from 'vitest';
import type { IdeCallbackRequest } from '../protocol';
import { IdeCallbackClient } from './ide-callback-client';

function client(timeoutMs = 50, sendOk = true) {
  const sent: IdeCallbackRequest[] = [];
  const ide = new IdeCallbackClient({
    send: (frame) => (sent.push(frame), sendOk),
    timeoutMs,
    idPrefix: 'cb-c1',
  });
  return { ide, sent };
}
const signal = () => new AbortController().signal;

describe('IdeCallbackClient', () => {
  it('sends a correlated request and resolves with the validated answer', async () => {
    const { ide, sent } = client();
    const result = ide.call('find_def_locations', { abspath: '/a.py', line: 1, character: 2 }, signal(), 42);
    expect(sent).toEqual([
      {
        callback_id: 'cb-c1-1',
        task_request_id: 42,
        cmd: 'find_def_locations',
        abspath: '/a.py',
        line: 1,
        character: 2,
      },
    ]);
    const location = {
      abspath: '/b.py',
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
    };
    expect(ide.answer({ callback_id: 'cb-c1-1', result: [location] })).toBe(true);
    await expect(result).resolves.toEqual([location]);
    expect(ide.answer({ callback_id: 'cb-c1-1', result: [] })).toBe(false);
  });

  it.each([
    ['times out', undefined, 'timeout'],
    ['reports the IDE’s error', { error: 'no language server' }, 'error'],
    ['refuses a malformed result', { result: { not: 'a list' } }, 'invalid_result'],
  ])('%s', async (_label, answer, reason) => {
    const { ide } = client();
    const result = ide.call('get_document_symbols', { abspath: '/a.py' }, signal(), 1);
    if (answer) ide.answer({ callback_id: 'cb-c1-1', ...answer });
    await expect(result).rejects.toMatchObject({ reason });
    expect(ide.pending).toBe(0);
  });

  it('gives up on abort, on close and when the frame cannot be sent', async () => {
    const { ide } = client(10_000);
    const controller = new AbortController();
    const aborted = ide.call('get_document_symbols', { abspath: '/a' }, controller.signal, 1);
    const closed = ide.call('get_document_symbols', { abspath: '/a' }, signal(), 1);
    controller.abort();
    ide.close();
    await expect(aborted).rejects.toMatchObject({ reason: 'aborted' });
    await expect(closed).rejects.toMatchObject({ reason: 'closed' });
    await expect(
      client(10, false).ide.call('get_document_symbols', { abspath: '/a' }, signal(), 1),
    ).rejects.toMatchObject({
      reason: 'unsent',
    });
  });
});
