import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../contracts/events';
import { buildTimeline, type ToolCallItem } from './timeline';
import {
  answerRepeatedBy,
  aroundNote,
  runNoteChanges,
  stoppedWhileRunning,
  toolNoteOutcome,
} from './note-outcome';

let sequence = 0;
function envelope(event: string, data: Record<string, unknown>): EventEnvelope {
  sequence += 1;
  return { id: sequence, sequence, event, resource_id: 'run_1', data, timestamp: '2026-01-01T00:00:00Z' };
}

/** A tool call and its result, as the trace records them. */
function call(
  id: string,
  name: string,
  result: Record<string, unknown>,
  args: unknown = {},
): EventEnvelope[] {
  return [
    envelope('ToolCall', { tool_call_id: id, name, step: 1, arguments: args }),
    envelope('ToolResult', {
      tool_call_id: id,
      status: 'ok',
      success: true,
      summary: 'for the model',
      ...result,
    }),
  ];
}

function toolItem(events: EventEnvelope[]): ToolCallItem {
  const item = buildTimeline(events).find((candidate) => candidate.kind === 'tool_call');
  if (item?.kind !== 'tool_call') throw new Error('no tool call');
  return item;
}

describe('toolNoteOutcome', () => {
  it('reads a created note from the structured result, not the English summary', () => {
    const item = toolItem(
      call(
        't1',
        'notes.create',
        { result: { note_id: 'note_fd9f', title: '操作系统第三讲 总结', version: 1, diff: '+x' } },
        { title: '操作系统第三讲 总结', folder: '/课程/' },
      ),
    );
    expect(toolNoteOutcome(item)).toEqual({
      kind: 'created',
      note_id: 'note_fd9f',
      title: '操作系统第三讲 总结',
      folder: '课程',
    });
  });

  it('reads note_id and title from a result the trace cut to a preview', () => {
    const preview = `${JSON.stringify({ note_id: 'note_1', title: 'Say “hi”', version: 2, mode: 'replace', diff: 'x'.repeat(5000) }).slice(0, 1000)}…`;
    const item = toolItem(call('t1', 'notes.update', { result: preview, result_truncated: true }));
    expect(toolNoteOutcome(item)).toEqual({ kind: 'replaced', note_id: 'note_1', title: 'Say “hi”' });
  });

  it('says what organise moved and tagged, comparing tags without case', () => {
    const item = toolItem(
      call('t1', 'notes.organise', {
        result: {
          note_id: 'n1',
          title: '第三讲',
          folder: '操作系统',
          tags: ['OS', '期末'],
          previous: { folder: '', tags: ['os', '草稿'] },
          changed: true,
        },
      }),
    );
    expect(toolNoteOutcome(item)).toEqual({
      kind: 'organised',
      note_id: 'n1',
      title: '第三讲',
      moved_to: '操作系统',
      tags_added: ['期末'],
      tags_removed: ['草稿'],
    });
  });

  it('knows nothing of failed calls, other tools or results without a note', () => {
    const failed = toolItem([
      envelope('ToolCall', { tool_call_id: 't1', name: 'notes.create', step: 1, arguments: {} }),
      envelope('ToolResult', { tool_call_id: 't1', status: 'denied', success: false, summary: 'no' }),
    ]);
    expect(toolNoteOutcome(failed)).toBeNull();
    expect(toolNoteOutcome(toolItem(call('t2', 'math.evaluate', { result: { note_id: 'x' } })))).toBeNull();
    expect(toolNoteOutcome(toolItem(call('t3', 'notes.read', { result: { title: 'no id' } })))).toBeNull();
  });
});

describe('runNoteChanges', () => {
  it('lists each written note once, with what the run did to it, and leaves out reads', () => {
    sequence = 0;
    const items = buildTimeline([
      ...call('t1', 'notes.read', { result: { note_id: 'n1', title: '第三讲' } }),
      ...call('t2', 'notes.organise', {
        result: {
          note_id: 'n1',
          title: '第三讲',
          folder: '',
          tags: ['os'],
          previous: { folder: '', tags: [] },
        },
      }),
      ...call('t3', 'notes.create', { result: { note_id: 'n2', title: '总结' } }),
      ...call('t4', 'notes.update', { result: { note_id: 'n2', title: '总结', mode: 'append' } }),
      ...call('t5', 'tasks.create', {
        result: { note_id: 'n3', title: '待办', created_note: false, tasks: [{}] },
      }),
      ...call('t6', 'notes.organise', {
        result: {
          note_id: 'n4',
          title: 'Same',
          folder: 'a',
          tags: [],
          previous: { folder: 'a', tags: [] },
          changed: false,
        },
      }),
    ]);
    expect(runNoteChanges(items)).toEqual([
      { note_id: 'n1', title: '第三讲', what: ['tagged'] },
      { note_id: 'n2', title: '总结', what: ['created'] },
      { note_id: 'n3', title: '待办', what: ['edited'] },
    ]);
  });
});

describe('stoppedWhileRunning', () => {
  it('tells a tool stopped mid-run from one stopped before it ran', () => {
    const stopped = (error: string) =>
      toolItem([
        envelope('ToolCall', { tool_call_id: 't1', name: 'anna-tools.slow', step: 1, arguments: {} }),
        envelope('ToolResult', {
          tool_call_id: 't1',
          status: 'cancelled',
          success: false,
          summary: error,
          error,
        }),
      ]);
    expect(stoppedWhileRunning(stopped('The run was cancelled while the tool was running.'))).toBe(true);
    expect(stoppedWhileRunning(stopped('The run was cancelled.'))).toBe(false);
  });
});

describe('answerRepeatedBy', () => {
  it('names the last step whose text is the run’s answer, so the answer shows once', () => {
    sequence = 0;
    const events = [
      envelope('ModelCallStarted', { model_call_id: 'm1', step: 1, provider_id: 'p', model: 'm' }),
      envelope('TextDelta', { model_call_id: 'm1', delta: '已完成。\n' }),
      envelope('RunCompleted', { output: '已完成。' }),
    ];
    const items = buildTimeline(events);
    expect(answerRepeatedBy(items)).toBe(items[0]?.key);
    expect(
      answerRepeatedBy(buildTimeline([...events.slice(0, 2), envelope('RunCompleted', { output: 'other' })])),
    ).toBeNull();
  });
});

describe('aroundNote', () => {
  it('cuts a sentence where the note goes, in any word order', () => {
    expect(aroundNote('在 \u0000 末尾添加了内容', '\u0000')).toEqual({
      before: '在 ',
      after: ' 末尾添加了内容',
    });
    expect(aroundNote('no marker', '\u0000')).toEqual({ before: 'no marker', after: '' });
  });
});
