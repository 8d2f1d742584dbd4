import { expect } from 'vitest';
import {
  MetonaProviderError,
  type IMetonaProviderAdapter,
  type MetonaResponse,
  type MetonaStreamEvent,
} from '../../ir';
import { ModelEventProjector, type ModelEvent, type ModelEventOf } from '../model-events';
import { toMetonaError } from '../shared/errors';
import { toolArgumentsError } from '../shared/tool-call-assembler';
import { loadRequestFixture, type ConformanceCase } from './case-schema';
import { irOrderViolations, modelEventViolations } from './check-event-order';

export interface CaseRun {
  irEvents: MetonaStreamEvent[];
  modelEvents: ModelEvent[];
  response?: MetonaResponse;
  error?: unknown;
  /** Whether the case aborted the call (its `abort_after_event` arrived). */
  aborted?: boolean;
}

/** Plays one case against one adapter, collecting the IR events and their ModelEvent projection. */
export async function runCase(adapter: IMetonaProviderAdapter, testCase: ConformanceCase): Promise<CaseRun> {
  const request = loadRequestFixture(testCase.request_fixture);
  const projector = new ModelEventProjector({ resourceId: request.meta.requestId });
  const controller = new AbortController();
  const run: CaseRun = { irEvents: [], modelEvents: [] };
  try {
    run.response = await adapter.sendStream(
      request,
      (event) => {
        run.irEvents.push(event);
        run.modelEvents.push(...projector.push(event));
        if (testCase.abort_after_event === event.type && !controller.signal.aborted) {
          run.aborted = true;
          controller.abort();
        }
      },
      { signal: controller.signal },
    );
  } catch (error) {
    run.error = error;
  }
  run.modelEvents.push(...projector.finish({ response: run.response, error: run.error }));
  return run;
}

const ofType = <E extends ModelEvent['event']>(events: ModelEvent[], name: E) =>
  events.filter((event): event is ModelEventOf<E> => event.event === name);

/** The case's assertions, plus the ordering rules every stream must keep. */
export function assertCase(run: CaseRun, testCase: ConformanceCase): void {
  const { assertions } = testCase;
  const { irEvents, modelEvents } = run;
  expect(irOrderViolations(irEvents), 'IR event order').toEqual([]);
  expect(modelEventViolations(modelEvents), 'ModelEvent order').toEqual([]);

  const done = modelEvents.at(-1);
  expect(done?.event).toBe(assertions.terminal_event);
  const expectedStatus = assertions.status ?? (assertions.error_code ? 'failed' : 'completed');
  expect(done?.event === 'Done' && done.data.status).toBe(expectedStatus);

  // Adapters reject exactly when the stream failed, with the project's error class.
  if (expectedStatus === 'completed') {
    expect(run.error).toBeUndefined();
    expect(irEvents.at(-1)?.type).toBe('done');
  } else {
    expect(run.error).toBeInstanceOf(MetonaProviderError);
    expect(irEvents.at(-1)?.type).toBe('error');
  }

  const toolEnds = ofType(modelEvents, 'ToolCallEnd');
  expect(toolEnds).toHaveLength(assertions.tool_calls);
  for (const end of toolEnds) {
    const delta = ofType(modelEvents, 'ToolCallDelta').filter(
      (d) => d.data.tool_call_id === end.data.tool_call_id,
    );
    const joined = delta.map((d) => d.data.arguments_delta).join('');
    expect(JSON.parse(joined)).toEqual(end.data.arguments);
    expect(typeof end.data.arguments === 'object' && !Array.isArray(end.data.arguments)).toBe(true);
  }
  if (assertions.tool_call_args) {
    expect(toolEnds.map((end) => ({ name: end.data.name, arguments: end.data.arguments }))).toEqual(
      assertions.tool_call_args,
    );
    expect(new Set(toolEnds.map((end) => end.data.tool_call_id)).size).toBe(toolEnds.length);
  }
  if (run.response) expect(run.response.toolCalls ?? []).toHaveLength(assertions.tool_calls);
  if (assertions.tool_call_argument_errors) {
    const faulty = (run.response?.toolCalls ?? []).flatMap((call) => {
      const fault = toolArgumentsError(call);
      return fault ? [{ name: call.name, text: fault.text }] : [];
    });
    expect(faulty).toEqual(assertions.tool_call_argument_errors);
  }

  const usage = ofType(modelEvents, 'Usage');
  if (assertions.usage_required) {
    expect(usage).toHaveLength(1);
    expect(usage[0]!.data.total_tokens).toBeGreaterThan(0);
  }
  if (assertions.usage) expect(usage[0]?.data).toMatchObject(assertions.usage);

  const errors = ofType(modelEvents, 'Error');
  if (assertions.error_code) {
    expect(errors).toHaveLength(1);
    expect(errors[0]!.data.code).toBe(assertions.error_code);
  } else {
    expect(errors).toEqual([]);
  }
  const thrown = run.error === undefined ? undefined : toMetonaError(run.error, 'unknown');
  if (assertions.metona_error_code) expect(thrown?.code).toBe(assertions.metona_error_code);
  if (assertions.retryable !== undefined) expect(thrown?.retryable).toBe(assertions.retryable);
  if (assertions.retry_after_ms !== undefined) {
    expect(thrown?.retryAfterMs).toBe(assertions.retry_after_ms);
    expect(errors[0]?.data.retry_after_ms).toBe(assertions.retry_after_ms);
  }

  const text = ofType(modelEvents, 'TextDelta')
    .map((event) => event.data.delta)
    .join('');
  if (assertions.text !== undefined) expect(text).toBe(assertions.text);
  if (run.response && assertions.text !== undefined) expect(run.response.content).toBe(assertions.text);

  const thinking = ofType(modelEvents, 'ThinkingDelta');
  if (assertions.reasoning !== undefined) {
    expect(thinking.map((event) => event.data.delta).join('')).toBe(assertions.reasoning);
    expect(run.response?.reasoningContent).toBe(assertions.reasoning);
  } else {
    // No invented thinking: only a case about reasoning may see it.
    expect(thinking).toEqual([]);
  }
  if (assertions.finish_reason) {
    expect(done?.event === 'Done' && done.data.finish_reason).toBe(assertions.finish_reason);
  }
}
