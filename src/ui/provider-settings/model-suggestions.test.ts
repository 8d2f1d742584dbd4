import { describe, expect, it } from 'vitest';
import { closestModels } from './model-suggestions';

describe('closestModels', () => {
  it('puts the model a typo meant first', () => {
    expect(closestModels('deepseek-chatt', ['deepseek-reasoner', 'deepseek-chat'])).toEqual([
      'deepseek-chat',
      'deepseek-reasoner',
    ]);
    expect(closestModels('GPT4o', ['o3-mini', 'gpt-4o-mini', 'gpt-4o', 'whisper-1'], 2)).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
    ]);
  });

  it('offers at most five, and keeps the provider order between equally near ones', () => {
    const listed = ['m-a', 'm-b', 'm-c', 'm-d', 'm-e', 'm-f', 'm-g'];
    expect(closestModels('zzz', listed)).toEqual(['m-a', 'm-b', 'm-c', 'm-d', 'm-e']);
  });

  it('finds an Ollama model by its name without the tag', () => {
    expect(closestModels('llama3', ['qwen2.5:7b', 'mistral:latest', 'llama3.1:8b'])[0]).toBe('llama3.1:8b');
  });
});
