import { describe, expect, it } from 'vitest';
import { distinctProviderNames } from './provider-labels';

const provider = (provider_id: string, display_name: string, base_url: string) => ({
  provider_id,
  display_name,
  base_url,
});

describe('distinctProviderNames', () => {
  it('leaves names nobody shares as they are', () => {
    const names = distinctProviderNames([
      provider('deepseek', 'DeepSeek', 'https://api.deepseek.com'),
      provider('ollama', 'Ollama', 'http://127.0.0.1:11434'),
    ]);
    expect([...names]).toEqual([
      ['deepseek', 'DeepSeek'],
      ['ollama', 'Ollama'],
    ]);
  });

  it('tells a shared name apart by host when the hosts differ', () => {
    const names = distinctProviderNames([
      provider('custom', 'Work', 'http://10.0.0.5:8000/v1'),
      provider('custom-2', 'work ', 'https://llm.example.com/v1'),
      provider('openai', 'OpenAI', 'https://api.openai.com/v1'),
    ]);
    expect(names.get('custom')).toBe('Work (10.0.0.5:8000)');
    expect(names.get('custom-2')).toBe('work (llm.example.com)');
    expect(names.get('openai')).toBe('OpenAI');
  });

  it('falls back to the unique id when the hosts say nothing (two keys for one service)', () => {
    const names = distinctProviderNames([
      provider('deepseek', 'DeepSeek', 'https://api.deepseek.com'),
      provider('deepseek-2', 'DeepSeek', 'https://api.deepseek.com'),
      provider('custom', 'DeepSeek', 'not a url'),
    ]);
    expect([...names.values()]).toEqual([
      'DeepSeek (deepseek)',
      'DeepSeek (deepseek-2)',
      'DeepSeek (custom)',
    ]);
  });

  it('names by the shown name it is given (a preset name in the UI language)', () => {
    const names = distinctProviderNames(
      [provider('a', 'Mock', 'mock://local'), provider('b', 'Other', 'mock://local')],
      () => 'Same',
    );
    expect([...names.values()]).toEqual(['Same (a)', 'Same (b)']);
  });
});
