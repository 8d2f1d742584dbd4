import type { MetonaStreamEvent } from '../../ir';
import type { ModelEvent } from '../model-events';

/**
 * The ordering rules every adapter must keep, as a list of violations (empty
 * when the stream is well-formed). IR: `seq` 0,1,2…; one terminal event
 * (`done` or `error`), last; `reasoning_delta` only between `thinking_start`
 * and `thinking_end`, which pair up; `usage` at most once, before `done`.
 */
export function irOrderViolations(events: readonly MetonaStreamEvent[]): string[] {
  const problems: string[] = [];
  events.forEach((event, index) => {
    if (event.seq !== index) problems.push(`event ${index} has seq ${event.seq}`);
  });
  const terminals = events.filter((event) => event.type === 'done' || event.type === 'error');
  if (terminals.length !== 1) problems.push(`${terminals.length} terminal events`);
  const last = events.at(-1);
  if (last && last.type !== 'done' && last.type !== 'error') problems.push(`last event is ${last.type}`);
  let thinking = false;
  let usage = 0;
  for (const event of events) {
    switch (event.type) {
      case 'thinking_start':
        if (thinking) problems.push('thinking_start inside thinking');
        thinking = true;
        break;
      case 'thinking_end':
        if (!thinking) problems.push('thinking_end without thinking_start');
        thinking = false;
        break;
      case 'reasoning_delta':
        if (!thinking) problems.push('reasoning_delta outside thinking_start/thinking_end');
        break;
      case 'usage':
        usage++;
        break;
      case 'done':
      case 'error':
        if (thinking) problems.push(`${event.type} inside thinking`);
        break;
      default:
        if (thinking) problems.push(`${event.type} inside thinking`);
    }
  }
  if (usage > 1) problems.push(`${usage} usage events`);
  const usageIndex = events.findIndex((event) => event.type === 'usage');
  const doneIndex = events.findIndex((event) => event.type === 'done');
  if (usageIndex !== -1 && doneIndex !== -1 && usageIndex > doneIndex) problems.push('usage after done');
  return problems;
}

/**
 * Contract §8.2: monotonic `sequence`; exactly one `Done`, last; on failure
 * `Error` right before it; `ToolCallStart`/`Delta`/`End` share an id, in order.
 */
export function modelEventViolations(events: readonly ModelEvent[]): string[] {
  const problems: string[] = [];
  for (let i = 1; i < events.length; i++) {
    if (events[i]!.sequence <= events[i - 1]!.sequence) problems.push(`sequence not increasing at ${i}`);
  }
  const done = events.filter((event) => event.event === 'Done');
  if (done.length !== 1) problems.push(`${done.length} Done events`);
  const last = events.at(-1);
  if (last?.event !== 'Done') problems.push(`last event is ${last?.event ?? 'missing'}`);
  if (last?.event === 'Done' && last.data.status === 'failed' && events.at(-2)?.event !== 'Error') {
    problems.push('failed Done without an Error before it');
  }
  const open = new Set<string>();
  for (const event of events) {
    if (event.event === 'ToolCallStart') open.add(event.data.tool_call_id);
    if (event.event === 'ToolCallDelta' && !open.has(event.data.tool_call_id))
      problems.push('ToolCallDelta before Start');
    if (event.event === 'ToolCallEnd') {
      if (!open.delete(event.data.tool_call_id)) problems.push('ToolCallEnd before Start');
    }
  }
  if (open.size > 0) problems.push('ToolCallStart without End');
  return problems;
}
