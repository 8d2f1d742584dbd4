import { core } from '../api/core-client';
import { reportError } from '../errors';
import { refreshPluginNames } from '../extensions/plugins.service';
import { agentSettings } from './agent-settings.svelte';

/**
 * Reads the grants and the tools with their on/off choice (when the settings dialog opens),
 * and the plugins' names their tools are shown by; memories are on the Memory page.
 */
export async function refreshAgentSettings(): Promise<void> {
  try {
    const [grants, tools, disabled] = await Promise.all([
      core.agent.grants(),
      core.agent.tools(),
      core.agent.disabledTools(),
    ]);
    agentSettings.setTools(tools, disabled);
    agentSettings.set(grants);
  } catch (error) {
    reportError(error);
  }
  void refreshPluginNames();
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

/** Turns a tool on or off for the runs started after it; the switch shows what was stored. */
export async function setToolEnabled(tool: string, enabled: boolean): Promise<void> {
  try {
    agentSettings.setDisabled(await core.agent.setToolEnabled({ tool, enabled }));
  } catch (error) {
    reportError(error);
    await refreshAgentSettings();
  }
}
