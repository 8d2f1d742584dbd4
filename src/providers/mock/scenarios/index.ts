import { mockScenarioSchema, type MockScenario } from '../scenario-schema';
import http401 from './http-401.json';
import http429 from './http-429.json';
import http500 from './http-500.json';
import invalidToolArgs from './invalid-tool-args.json';
import reasoning from './reasoning.json';
import slowText from './slow-text.json';
import streamCut from './stream-cut.json';
import text from './text.json';
import toolArgsSplit from './tool-args-split.json';
import toolCall from './tool-call.json';
import toolCallsParallel from './tool-calls-parallel.json';
import usage from './usage.json';
import utf8Split from './utf8-split.json';

/** The built-in scenarios, validated once at load; the key is the file name. */
export const mockScenarios: Readonly<Record<string, MockScenario>> = Object.fromEntries(
  Object.entries({
    'http-401': http401,
    'http-429': http429,
    'http-500': http500,
    'invalid-tool-args': invalidToolArgs,
    reasoning: reasoning,
    'slow-text': slowText,
    'stream-cut': streamCut,
    text: text,
    'tool-args-split': toolArgsSplit,
    'tool-call': toolCall,
    'tool-calls-parallel': toolCallsParallel,
    usage: usage,
    'utf8-split': utf8Split,
  }).map(([name, scenario]) => [name, mockScenarioSchema.parse(scenario)]),
);
