import { core } from '../api/core-client';
import { reportError } from '../errors';
import { agentSettings } from './agent-settings.svelte';

/** Reads the grants (when the settings dialog opens); memories are on the Memory page. */
export async function refreshAgentSettings(): Promise<void> {
  try {
    agentSettings.set(await core.agent.grants());
  } catch (error) {
    reportError(error);
  }
}

/** Revokes an "always allow" grant; the next use of the permission asks again. */
export async function revokeGrant(permission: string): Promise<void> {
  try {
    await core.agent.revokeGrant(permission);
    agentSettings.removeGrant(permission);
  } catch (error) {
    reportError(error);
    await refreshAgentSettings();
  }
}
