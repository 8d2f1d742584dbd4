import { describe, expect, it } from 'vitest';
import type { IMetonaProviderAdapter } from '../../ir';
import { AnthropicAdapter } from '../anthropic';
import { OllamaAdapter } from '../ollama';
import { OpenAICompatibleAdapter } from '../openai-compatible';
import { loadCases } from './case-schema';
import { runCase } from './run-case';
import { irOrderViolations, modelEventViolations } from './check-event-order';

/**
 * Real-network checks, grouped apart from the offline suite (contract §8.3):
 * each runs only when its key (or Ollama URL) is in the environment, so CI
 * needs no external key. Answers are not fixed, so only the rules are checked.
 */
interface LiveTarget {
  name: string;
  /** All must be set; the first is passed to `create` (a key, or Ollama's URL). */
  env: string[];
  create: (value: string) => IMetonaProviderAdapter;
}

const env = (name: string) => process.env[name] || undefined;

const liveTargets: LiveTarget[] = [
  {
    name: 'deepseek',
    env: ['DEEPSEEK_API_KEY'],
    create: (apiKey) =>
      new OpenAICompatibleAdapter({ preset: 'deepseek', apiKey, model: env('DEEPSEEK_MODEL') }),
  },
  {
    name: 'openai',
    env: ['OPENAI_API_KEY'],
    create: (apiKey) => new OpenAICompatibleAdapter({ preset: 'openai', apiKey, model: env('OPENAI_MODEL') }),
  },
  {
    name: 'agnes-ai',
    // The Agnes preset has no default model: name one.
    env: ['AGNES_API_KEY', 'AGNES_MODEL'],
    create: (apiKey) =>
      new OpenAICompatibleAdapter({ preset: 'agnes-ai', apiKey, model: env('AGNES_MODEL') }),
  },
  {
    name: 'anthropic',
    env: ['ANTHROPIC_API_KEY'],
    create: (apiKey) => new AnthropicAdapter({ apiKey, model: env('ANTHROPIC_MODEL') }),
  },
  {
    name: 'ollama',
    env: ['OLLAMA_BASE_URL', 'OLLAMA_MODEL'],
    create: (baseUrl) => new OllamaAdapter({ baseUrl, model: env('OLLAMA_MODEL')! }),
  },
];

const textCase = loadCases().find((testCase) => testCase.id === 'provider-text-basic')!;
const toolCase = loadCases().find((testCase) => testCase.id === 'provider-tool-call-basic')!;

describe('live providers (real network)', () => {
  for (const target of liveTargets) {
    const unset = target.env.filter((name) => env(name) === undefined);
    const value = unset.length === 0 ? env(target.env[0]!) : undefined;
    const skip = value ? '' : ` (skipped: ${unset.join(' and ')} not set)`;

    it.skipIf(!value)(
      `${target.name}: plain text streams and ends with one Done${skip}`,
      { timeout: 60_000 },
      async () => {
        const run = await runCase(target.create(value!), textCase);
        expect(run.error).toBeUndefined();
        expect(irOrderViolations(run.irEvents)).toEqual([]);
        expect(modelEventViolations(run.modelEvents)).toEqual([]);
        expect(run.response?.content.length).toBeGreaterThan(0);
        expect(run.response?.usage.totalTokens).toBeGreaterThan(0);
      },
    );

    it.skipIf(!value)(
      `${target.name}: a tool call arrives with object arguments${skip}`,
      { timeout: 60_000 },
      async () => {
        const run = await runCase(target.create(value!), toolCase);
        expect(run.error).toBeUndefined();
        expect(irOrderViolations(run.irEvents)).toEqual([]);
        for (const call of run.response?.toolCalls ?? []) expect(typeof call.args).toBe('object');
      },
    );
  }
});
