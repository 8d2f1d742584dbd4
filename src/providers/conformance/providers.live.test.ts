import { describe, expect, it } from 'vitest';
import type { IMetonaProviderAdapter } from '../../ir';
import { AnthropicAdapter } from '../anthropic';
import { OllamaAdapter } from '../ollama';
import { OpenAICompatibleAdapter } from '../openai-compatible';
import { loadCases } from './case-schema';
import { runCase } from './run-case';
import { irOrderViolations, modelEventViolations } from './check-event-order';

/**
 * Real-network checks, apart from the offline suite (contract §8.3): `npm test` never runs them,
 * so CI needs no external key. `LIVE_PROVIDERS=deepseek,anthropic npm run test:live` runs the
 * named targets; a named target without its key (or Ollama URL) fails instead of being left out.
 * Answers are not fixed, so only the rules are checked.
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

const chosen = (process.env.LIVE_PROVIDERS ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');

describe('live providers (real network)', () => {
  it('are named in LIVE_PROVIDERS, each a known target', () => {
    const known = liveTargets.map((target) => target.name);
    expect(chosen, `set LIVE_PROVIDERS to some of ${known.join(', ')}`).not.toEqual([]);
    expect(chosen.filter((name) => !known.includes(name))).toEqual([]);
  });

  for (const target of liveTargets.filter((candidate) => chosen.includes(candidate.name))) {
    const adapter = () => {
      const unset = target.env.filter((name) => env(name) === undefined);
      expect(unset, `${target.name} needs ${unset.join(' and ')}`).toEqual([]);
      return target.create(env(target.env[0]!)!);
    };

    it(`${target.name}: plain text streams and ends with one Done`, { timeout: 60_000 }, async () => {
      const run = await runCase(adapter(), textCase);
      expect(run.error).toBeUndefined();
      expect(irOrderViolations(run.irEvents)).toEqual([]);
      expect(modelEventViolations(run.modelEvents)).toEqual([]);
      expect(run.response?.content.length).toBeGreaterThan(0);
      expect(run.response?.usage.totalTokens).toBeGreaterThan(0);
    });

    it(`${target.name}: a tool call arrives with object arguments`, { timeout: 60_000 }, async () => {
      const run = await runCase(adapter(), toolCase);
      expect(run.error).toBeUndefined();
      expect(irOrderViolations(run.irEvents)).toEqual([]);
      for (const call of run.response?.toolCalls ?? []) expect(typeof call.args).toBe('object');
    });
  }
});
