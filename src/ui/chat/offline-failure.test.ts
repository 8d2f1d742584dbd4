import { describe, expect, it } from 'vitest';
import { brokeOffWhileOffline } from './offline-failure';

describe('brokeOffWhileOffline', () => {
  it('reads a stream broken while offline as the lost connection', () => {
    expect(brokeOffWhileOffline('PROVIDER_STREAM_INTERRUPTED', 'https://api.deepseek.com/v1', false)).toBe(
      true,
    );
  });

  it('leaves a stream broken while online as interrupted', () => {
    expect(brokeOffWhileOffline('PROVIDER_STREAM_INTERRUPTED', 'https://api.deepseek.com/v1', true)).toBe(
      false,
    );
  });

  it('leaves other failures to their own wording', () => {
    expect(brokeOffWhileOffline('PROVIDER_AUTH_FAILED', 'https://api.deepseek.com/v1', false)).toBe(false);
  });

  it('does not blame the network for a provider on this machine', () => {
    expect(brokeOffWhileOffline('PROVIDER_STREAM_INTERRUPTED', 'http://localhost:11434', false)).toBe(false);
    expect(brokeOffWhileOffline('PROVIDER_STREAM_INTERRUPTED', 'http://127.0.0.1:1234/v1', false)).toBe(
      false,
    );
  });
});
