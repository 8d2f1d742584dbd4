import { core } from '../api/core-client';
import { reportError } from '../errors';

/** The windows the user set for this provider's models, by model; empty when they cannot be read. */
export async function loadContextWindows(providerId: string): Promise<Record<string, number>> {
  try {
    return await core.providers.contextWindows(providerId);
  } catch (error) {
    reportError(error);
    return {};
  }
}

/** Saves (or with null, clears) one model's window; answers the stored windows, or undefined on failure. */
export async function saveContextWindow(
  providerId: string,
  model: string,
  contextWindow: number | null,
): Promise<Record<string, number> | undefined> {
  try {
    return await core.providers.setContextWindow({
      provider_id: providerId,
      model,
      context_window: contextWindow,
    });
  } catch (error) {
    reportError(error);
    return undefined;
  }
}
