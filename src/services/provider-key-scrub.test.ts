import { afterEach, describe, expect, it } from 'vitest';
import { scrubKeyShapes } from '../providers/shared/errors';
import { testCore } from './test-core';

const KEY = 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXyZ0aB4cD7eF0gH3iJ6kL9mN2oP5qR8s';
const OPENAI_401 = {
  error: {
    message:
      'Incorrect API key provided: sk-proj-***************************************************************8s. ' +
      'You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
};

type Core = ReturnType<typeof testCore>;
const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

function leaks(text: string): string[] {
  return ['sk-proj', '8s.', KEY.slice(0, 12), KEY.slice(-6), '****'].filter((part) => text.includes(part));
}

describe('provider errors never show a key', () => {
  it('scrubs key shapes and masked fragments from text', () => {
    expect(scrubKeyShapes(OPENAI_401.error.message)).toBe(
      'Incorrect API key provided: [redacted key]. You can find your API key at https://platform.openai.com/account/api-keys.',
    );
    expect(scrubKeyShapes('Authorization: Bearer abc.def')).not.toContain('abc.def');
    expect(scrubKeyShapes(`key ${KEY} rejected`)).toBe('key [redacted key] rejected');
    expect(scrubKeyShapes('The model is overloaded, try again.')).toBe('The model is overloaded, try again.');
  });

  it('the 401 echo reaches neither the stored chat message, its events, nor the provider test', async () => {
    const fetch = (async () =>
      Response.json(OPENAI_401, { status: 401 })) as unknown as typeof globalThis.fetch;
    const core = testCore({ providers: { fetch } });
    cores.push(core);
    await core.api.providers.create({
      provider_id: 'openai',
      preset: 'openai',
      default_model: 'gpt-4o-mini',
      api_key: KEY,
    });
    const answer = await core.api.chat.complete({ content: 'Hi', provider_id: 'openai' });
    expect(answer.status).toBe('failed');
    expect(answer.error?.code).toBe('PROVIDER_AUTH_FAILED');
    expect(leaks(answer.error?.message ?? '')).toEqual([]);
    const events = await core.api.events.list(answer.message_id, { after_sequence: 0, limit: 100 });
    expect(leaks(JSON.stringify(events.items))).toEqual([]);

    const tested = await core.api.providers.test({ provider_id: 'openai' });
    expect(tested.ok).toBe(false);
    expect(leaks(tested.error?.message ?? '')).toEqual([]);

    const run = await core.api.agent.start({ prompt: 'Say hi', provider: 'openai' });
    await core.idle();
    const trace = await core.api.agent.trace({ run_id: run.run_id });
    expect(trace.items.some((item) => item.event === 'RunFailed')).toBe(true);
    expect(leaks(JSON.stringify(trace.items))).toEqual([]);
    expect(leaks(JSON.stringify(await core.api.agent.get(run.run_id)))).toEqual([]);
  });
});
