import { describe, expect, it } from 'vitest';
import type { ModelInfoDto } from '../../contracts/provider-config';
import { local, localItem, pickerLabels, provider } from './__fixtures__/model-picker';
import {
  buildModelGroups,
  capabilitiesOf,
  localModelOf,
  optionValue,
  parseOptionValue,
  unlistedChoice,
} from './model-options';

const info = (
  model: string,
  capabilities: ModelInfoDto['capabilities'] = ['chat'],
  displayName = model,
): ModelInfoDto => ({
  model,
  display_name: displayName,
  capabilities,
  context_window: null,
  max_output_tokens: null,
  deprecated: false,
  metadata: {},
});
const labels = pickerLabels;

describe('buildModelGroups', () => {
  const providers = [provider('a', 'a-1'), provider('b', 'b-default')];
  const models = { a: [info('a-1'), info('a-2', ['chat'], 'Model Two')], b: undefined };

  it('lists every model a provider reports, and the default when the list is unknown', () => {
    const groups = buildModelGroups(providers, models, null, labels);
    expect(groups.map((group) => group.options.map((option) => option.label))).toEqual([
      ['A · a-1', 'A · Model Two (a-2)'],
      ['B · b-default'],
    ]);
  });

  it('offers a model the provider lists twice only once', () => {
    const groups = buildModelGroups(
      [provider('a', 'a-1')],
      { a: [info('a-1'), info('a-2'), info('a-1')] },
      null,
      labels,
    );
    expect(groups[0]!.options.map((option) => option.value)).toEqual([
      optionValue('a', 'a-1'),
      optionValue('a', 'a-2'),
    ]);
  });

  it('names the mock’s models by id: its English display names would sit in any UI language', () => {
    const groups = buildModelGroups(
      [{ ...provider('mock', 'mock-1', 'mock'), type: 'mock' }],
      { mock: [info('mock-1', ['chat'], 'Mock (scripted, for tests and demos)')] },
      null,
      labels,
    );
    expect(groups[0]?.options.map((option) => option.label)).toEqual(['MOCK · mock-1']);
  });

  it('does not repeat a model id its display name already starts with', () => {
    const groups = buildModelGroups(
      [{ ...provider('ollama', 'llama3', 'ollama'), type: 'ollama' }],
      {
        ollama: [info('qwen2.5:7b', ['chat'], 'qwen2.5:7b (7.6B)'), info('llama3', ['chat'], 'Llama 3 (8B)')],
      },
      null,
      labels,
    );
    expect(groups[0]?.options.map((option) => option.label)).toEqual([
      'OLLAMA · qwen2.5:7b (7.6B)',
      'OLLAMA · Llama 3 (8B) (llama3)',
    ]);
  });

  it('puts local models first with WebGPU, marking undownloaded and unrunnable ones', () => {
    const groups = buildModelGroups(
      providers,
      models,
      local(true, [
        localItem('small', { cached: true }),
        localItem('big'),
        localItem('f16', { runnable: false, unavailable_message: 'needs shader-f16; use f32' }),
      ]),
      labels,
    );
    expect(groups[0]!.label).toBe('In-browser');
    expect(groups[0]!.options.map((option) => [option.label, option.disabled, option.title])).toEqual([
      ['small', false, null],
      ['big — not downloaded', false, null],
      ['f16 — cannot run here', false, 'needs shader-f16; use f32'],
    ]);
  });

  it('puts local models last and disabled, with the reason, without WebGPU', () => {
    const groups = buildModelGroups(providers, models, local(false, [localItem('small')]), labels);
    const last = groups.at(-1)!;
    expect(last.label).toBe('In-browser (unavailable)');
    expect(last.options[0]).toMatchObject({ disabled: true, title: 'No WebGPU here.' });
  });

  it('round-trips option values', () => {
    expect(parseOptionValue(optionValue('webllm', 'Qwen3-0.6B'))).toEqual({
      provider_id: 'webllm',
      model: 'Qwen3-0.6B',
    });
    expect(parseOptionValue(optionValue('ollama', 'odd|name'))).toEqual({
      provider_id: 'ollama',
      model: 'odd|name',
    });
  });
});

describe('unlistedChoice', () => {
  const groups = buildModelGroups([provider('a', 'a-1')], { a: [info('a-1')] }, null, labels);

  it('is null when nothing is picked or a group offers the pick', () => {
    expect(unlistedChoice(groups, null)).toBeNull();
    expect(unlistedChoice(groups, { provider_id: 'a', model: 'a-1' })).toBeNull();
  });

  it('keeps a pick the lists no longer offer, under its option value', () => {
    expect(unlistedChoice(groups, { provider_id: 'a', model: 'retired' })).toEqual({
      value: optionValue('a', 'retired'),
      provider_id: 'a',
      model: 'retired',
    });
    expect(unlistedChoice(groups, { provider_id: 'gone', model: 'a-1' })?.value).toBe(
      optionValue('gone', 'a-1'),
    );
  });
});

describe('capabilitiesOf', () => {
  it('offers thinking for reasoning models, effort only for remote ones', () => {
    const models = { a: [info('r', ['chat', 'reasoning']), info('plain')] };
    const locals = local(true, [localItem('qwen3', { thinking: true })]);
    expect(capabilitiesOf({ provider_id: 'a', model: 'r' }, models, locals)).toEqual({
      thinking: true,
      effort: true,
    });
    expect(capabilitiesOf({ provider_id: 'a', model: 'plain' }, models, locals)).toEqual({
      thinking: false,
      effort: false,
    });
    expect(capabilitiesOf({ provider_id: 'webllm', model: 'qwen3' }, models, locals)).toEqual({
      thinking: true,
      effort: false,
    });
  });
});

describe('localModelOf', () => {
  it('is the listed in-browser model picked, and null for a remote or unlisted pick', () => {
    const item = localItem('qwen', { runnable: false });
    const locals = local(true, [item]);
    expect(localModelOf({ provider_id: 'webllm', model: 'qwen' }, locals)).toBe(item);
    expect(localModelOf({ provider_id: 'a', model: 'qwen' }, locals)).toBeNull();
    expect(localModelOf({ provider_id: 'webllm', model: 'gone' }, locals)).toBeNull();
    expect(localModelOf({ provider_id: 'webllm', model: 'qwen' }, null)).toBeNull();
    expect(localModelOf(null, locals)).toBeNull();
  });
});
