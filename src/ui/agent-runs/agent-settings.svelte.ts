import type { CoreApi } from '../../services/core-api';

export type AgentGrant = Awaited<ReturnType<CoreApi['agent']['grants']>>[number];

/** Settings' agent section: the stored "always allow" grants (memories have their own page). */
export class AgentSettingsState {
  #grants = $state.raw<AgentGrant[]>([]);
  #loaded = $state(false);

  get grants(): AgentGrant[] {
    return this.#grants;
  }
  get loaded(): boolean {
    return this.#loaded;
  }

  set(grants: AgentGrant[]): void {
    this.#grants = grants;
    this.#loaded = true;
  }

  removeGrant(permission: string): void {
    this.#grants = this.#grants.filter((grant) => grant.permission !== permission);
  }

  reset(): void {
    this.#grants = [];
    this.#loaded = false;
  }
}

export const agentSettings = new AgentSettingsState();
