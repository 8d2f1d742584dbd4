import { describe, expect, it } from 'vitest';
import { providerErrorHelp } from './provider-error';

describe('provider error help', () => {
  it('names the URL and the likely causes of an unreachable provider', () => {
    expect(providerErrorHelp('PROVIDER_UNAVAILABLE', 'http://localhost:11434')).toEqual({
      url: 'http://localhost:11434',
      headline: 'providers.unreachable',
      causes: ['providers.cause.down', 'providers.cause.cors', 'providers.cause.url'],
    });
    expect(providerErrorHelp('PROVIDER_TIMEOUT', 'https://api.example/v1')?.url).toBe(
      'https://api.example/v1',
    );
  });

  it('a request that failed on the way is unreachable; a server that answered 5xx is not', () => {
    expect(
      providerErrorHelp('PROVIDER_UNAVAILABLE', 'https://api.example/v1', 'network_error')?.headline,
    ).toBe('providers.unreachable');
    expect(providerErrorHelp('PROVIDER_UNAVAILABLE', 'https://api.example/v1', 'model_overloaded')).toEqual({
      url: 'https://api.example/v1',
      headline: 'providers.serverError',
      causes: ['providers.cause.overloaded', 'providers.cause.otherModel'],
    });
  });

  it('has nothing to add for other errors or an unknown provider', () => {
    expect(providerErrorHelp('PROVIDER_RATE_LIMITED', 'https://api.example/v1')).toBeNull();
    expect(providerErrorHelp('PROVIDER_UNAVAILABLE', null)).toBeNull();
  });

  it('a refused key names the address that refused it and what to check in its settings', () => {
    expect(providerErrorHelp('PROVIDER_AUTH_FAILED', 'https://api.example/v1')).toEqual({
      url: 'https://api.example/v1',
      headline: 'providers.keyRefused',
      causes: ['providers.cause.keyWrong', 'providers.cause.keyOther'],
    });
    expect(providerErrorHelp('PROVIDER_AUTH_FAILED', null)).toBeNull();
  });
});
