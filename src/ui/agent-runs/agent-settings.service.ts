import { core } from '../api/core-client';
import { reportError } from '../errors';
import { agentSettings } from './agent-settings.svelte';

/** Reads the grants and memories (when the settings dialog opens). */
export async function refreshAgentSettings(): Promise<void> {
  try {
    const [grants, memories] = await Promise.all([core.agent.grants(), core.agent.memories()]);
    agentSettings.set(grants, memories);
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

export async function deleteMemory(id: string): Promise<void> {
  try {
    await core.agent.deleteMemory(id);
    agentSettings.removeMemory(id);
  } catch (error) {
    reportError(error);
    await refreshAgentSettings();
  }
}
