import type { CoreApi } from '../../services/core-api';

export type AgentGrant = Awaited<ReturnType<CoreApi['agent']['grants']>>[number];
export type AgentMemory = Awaited<ReturnType<CoreApi['agent']['memories']>>[number];

/** Settings' agent section: the stored "always allow" grants and memory items. */
export class AgentSettingsState {
  #grants = $state.raw<AgentGrant[]>([]);
  #memories = $state.raw<AgentMemory[]>([]);
  #loaded = $state(false);

  get grants(): AgentGrant[] {
    return this.#grants;
  }
  get memories(): AgentMemory[] {
    return this.#memories;
  }
  get loaded(): boolean {
    return this.#loaded;
  }

  set(grants: AgentGrant[], memories: AgentMemory[]): void {
    this.#grants = grants;
    this.#memories = memories;
    this.#loaded = true;
  }

  removeGrant(permission: string): void {
    this.#grants = this.#grants.filter((grant) => grant.permission !== permission);
  }

  removeMemory(id: string): void {
    this.#memories = this.#memories.filter((item) => item.id !== id);
  }

  reset(): void {
    this.#grants = [];
    this.#memories = [];
    this.#loaded = false;
  }
}

export const agentSettings = new AgentSettingsState();
