import type { AgentToolInfoDto } from '../../contracts/agent-runs';
import type { CoreApi } from '../../services/core-api';

export type AgentGrant = Awaited<ReturnType<CoreApi['agent']['grants']>>[number];

/**
 * Settings' agent section: the stored "always allow" grants and which tools the agent may
 * use (memories have their own page).
 */
export class AgentSettingsState {
  #grants = $state.raw<AgentGrant[]>([]);
  #loaded = $state(false);
  #tools = $state.raw<AgentToolInfoDto[]>([]);
  #disabled = $state.raw<readonly string[]>([]);

  get grants(): AgentGrant[] {
    return this.#grants;
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  /** Every registered tool, built-in and plugin, in the registry's order. */
  get tools(): AgentToolInfoDto[] {
    return this.#tools;
  }
  /** The names of the tools turned off. */
  get disabled(): readonly string[] {
    return this.#disabled;
  }

  set(grants: AgentGrant[]): void {
    this.#grants = grants;
    this.#loaded = true;
  }

  setTools(tools: AgentToolInfoDto[], disabled: readonly string[]): void {
    this.#tools = tools;
    this.#disabled = disabled;
  }

  setDisabled(disabled: readonly string[]): void {
    this.#disabled = disabled;
  }

  isEnabled(tool: string): boolean {
    return !this.#disabled.includes(tool);
  }

  removeGrant(permission: string): void {
    this.#grants = this.#grants.filter((grant) => grant.permission !== permission);
  }

  reset(): void {
    this.#grants = [];
    this.#loaded = false;
    this.#tools = [];
    this.#disabled = [];
  }
}

export const agentSettings = new AgentSettingsState();
