import { describe, expect, it } from 'vitest';
import { listedTwin } from './model-alias';

describe('listedTwin', () => {
  it('an exact id is its own twin, whatever the provider', () => {
    expect(listedTwin('openai-compatible', 'gpt-4o', ['gpt-4o', 'gpt-4o-mini'])).toBe('gpt-4o');
    expect(listedTwin('ollama', 'llama3:8b', ['llama3:8b', 'llama3:latest'])).toBe('llama3:8b');
  });

  it('Ollama: an untagged name is its listed :latest, and no other tag', () => {
    expect(listedTwin('ollama', 'llama3', ['qwen2.5:7b', 'llama3:latest'])).toBe('llama3:latest');
    expect(listedTwin('ollama', 'qwen2.5', ['qwen2.5:7b'])).toBeUndefined();
    expect(listedTwin('ollama', 'llama3:8b', ['llama3:latest'])).toBeUndefined();
  });

  it('Anthropic: an alias (or …-latest) is the newest dated id it names', () => {
    const ids = ['claude-sonnet-4-5-20250929', 'claude-3-5-haiku-20240307', 'claude-3-5-haiku-20241022'];
    expect(listedTwin('anthropic', 'claude-sonnet-4-5', ids)).toBe('claude-sonnet-4-5-20250929');
    expect(listedTwin('anthropic', 'claude-3-5-haiku-latest', ids)).toBe('claude-3-5-haiku-20241022');
    expect(listedTwin('anthropic', 'claude-opus-4-1', ids)).toBeUndefined();
  });

  it('other providers match exactly only', () => {
    expect(listedTwin('openai-compatible', 'llama3', ['llama3:latest'])).toBeUndefined();
  });
});
