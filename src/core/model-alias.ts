import type { ProviderType } from '../contracts/provider-config';

/**
 * The listed id that `model` names on a provider of this type, or undefined.
 * Adapters send the name as typed, and some servers answer a name their list
 * spells differently: Ollama lists every model with its tag (`llama3:latest`)
 * and runs an untagged name as `:latest`; Anthropic lists dated ids
 * (`claude-sonnet-4-5-20250929`) and answers their aliases (`claude-sonnet-4-5`,
 * `…-latest`). An exact match wins over an alias.
 */
export function listedTwin(type: ProviderType, model: string, ids: readonly string[]): string | undefined {
  if (ids.includes(model)) return model;
  if (type === 'ollama') {
    if (model.includes(':')) return undefined;
    const tagged = `${model}:latest`;
    return ids.includes(tagged) ? tagged : undefined;
  }
  if (type === 'anthropic') {
    const alias = model.replace(/-latest$/, '');
    // The newest dated id is the one an alias resolves to.
    return ids
      .filter((id) => id.replace(/-\d{8}$/, '') === alias)
      .sort()
      .at(-1);
  }
  return undefined;
}
