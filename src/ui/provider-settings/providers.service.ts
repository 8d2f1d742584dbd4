import type {
  CreateProviderInput,
  PatchProviderInput,
  ProviderDto,
  ProviderPresetDto,
  ProviderTestResultDto,
  TestProviderInput,
} from '../../contracts/provider-config';
import { core } from '../api/core-client';
import { reportError } from '../errors';

export async function loadProviders(): Promise<{ providers: ProviderDto[]; presets: ProviderPresetDto[] }> {
  try {
    const [providers, presets] = await Promise.all([core.providers.list(), core.providers.presets()]);
    return { providers: providers.items, presets };
  } catch (error) {
    reportError(error);
    return { providers: [], presets: [] };
  }
}

/** Create or update; the key field's value goes to the worker once and is not kept here. */
export async function saveProvider(
  editing: string | null,
  input: Omit<CreateProviderInput, 'api_key'> & PatchProviderInput,
): Promise<ProviderDto | null> {
  try {
    if (editing === null) {
      const { api_key: apiKey, ...fields } = input;
      return await core.providers.create({ ...fields, ...(apiKey && { api_key: apiKey }) });
    }
    const { preset: _preset, provider_id: _id, ...patch } = input;
    return await core.providers.patch(editing, patch);
  } catch (error) {
    reportError(error);
    return null;
  }
}

export async function deleteProvider(providerId: string): Promise<boolean> {
  try {
    await core.providers.delete(providerId);
    return true;
  } catch (error) {
    reportError(error);
    return false;
  }
}

export async function testProvider(input: TestProviderInput): Promise<ProviderTestResultDto | null> {
  try {
    return await core.providers.test(input);
  } catch (error) {
    reportError(error);
    return null;
  }
}
