/** What a model picker needs of a provider to name it. */
export interface NamedProvider {
  provider_id: string;
  display_name: string;
  base_url: string;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/**
 * A name per provider that tells it from the others: two providers may share a
 * name (two DeepSeek keys, two "Custom" endpoints), and a picker listing both as
 * "DeepSeek · deepseek-chat" would leave the user guessing. A shared name gets
 * the provider's host when the hosts differ, else its id (`deepseek-2`), which
 * is unique; a name nobody shares is left as it is.
 */
export function distinctProviderNames<P extends NamedProvider>(
  providers: readonly P[],
  nameOf: (provider: P) => string = (provider) => provider.display_name,
): Map<string, string> {
  const byName = new Map<string, P[]>();
  for (const provider of providers) {
    const key = nameOf(provider).trim().toLocaleLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), provider]);
  }
  const names = new Map<string, string>();
  for (const group of byName.values()) {
    const hosts = group.map((provider) => hostOf(provider.base_url));
    const hostsTell = hosts.every((host, index) => host !== '' && hosts.indexOf(host) === index);
    group.forEach((provider, index) => {
      const name = nameOf(provider).trim();
      const tag = hostsTell ? hosts[index] : provider.provider_id;
      names.set(provider.provider_id, group.length === 1 ? name : `${name} (${tag})`);
    });
  }
  return names;
}
