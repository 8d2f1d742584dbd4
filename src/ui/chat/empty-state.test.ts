import { describe, expect, it } from 'vitest';
import { local, localItem, provider } from './__fixtures__/model-picker';
import { emptyStateOf } from './empty-state';

describe('emptyStateOf', () => {
  const mock = provider('mock', 'mock-model', 'mock');
  const remote = provider('deepseek', 'deepseek-chat', 'deepseek');

  it('names the picked real provider and model, not the mock', () => {
    const models = {
      deepseek: [
        {
          model: 'deepseek-chat',
          display_name: 'DeepSeek Chat',
          capabilities: ['chat' as const],
          context_window: null,
          max_output_tokens: null,
          deprecated: false,
          metadata: {},
        },
      ],
    };
    expect(
      emptyStateOf({ provider_id: 'deepseek', model: 'deepseek-chat' }, [mock, remote], models, null),
    ).toEqual({ key: 'chat.emptyRemote', params: { model: 'DeepSeek Chat', provider: 'DEEPSEEK' } });
    // A model the provider did not list (or a list that could not be read) goes by its id.
    expect(emptyStateOf({ provider_id: 'deepseek', model: 'other' }, [remote], {}, null)).toEqual({
      key: 'chat.emptyRemote',
      params: { model: 'other', provider: 'DEEPSEEK' },
    });
  });

  it('speaks of the mock only when it is picked, and points to the real one when there is one', () => {
    const choice = { provider_id: 'mock', model: 'mock-model' };
    expect(emptyStateOf(choice, [mock], {}, null)).toEqual({ key: 'chat.empty' });
    expect(emptyStateOf(choice, [mock, remote], {}, null)).toEqual({ key: 'chat.emptyMockPick' });
  });

  it('says an in-browser model keeps the messages on the device, by its display name', () => {
    const models = local(true, [localItem('qwen-0.5b', { display_name: 'Qwen 0.5B' })]);
    expect(emptyStateOf({ provider_id: 'webllm', model: 'qwen-0.5b' }, [mock], {}, models)).toEqual({
      key: 'chat.emptyLocal',
      params: { model: 'Qwen 0.5B' },
    });
  });

  it('asks for a provider when nothing can be picked', () => {
    expect(emptyStateOf(null, [], {}, null)).toEqual({ key: 'chat.emptyNoModel' });
  });
});
