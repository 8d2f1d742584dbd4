import type { ProviderDto, ProviderPresetDto } from '../../contracts/provider-config';
import { core } from '../api/core-client';
import { t } from '../i18n';
import { presetNameKey } from './provider-text';

/**
 * The presets' own names, loaded once: a provider still carrying its preset's name
 * ("OpenAI-compatible", "Mock (scripted demo)") is shown in the UI's language in every
 * view that names it, as the Settings form does, not only there.
 */
let presets = $state.raw<readonly ProviderPresetDto[]>([]);
let loading: Promise<void> | null = null;

function loadPresets(): void {
  loading ??= core.providers.presets().then(
    (items) => {
      presets = items;
    },
    () => {
      // Names stay as stored until a later call loads them.
      loading = null;
    },
  );
}

type Named = Pick<ProviderDto, 'preset' | 'display_name'>;

/**
 * The key of the provider's untouched preset name among `among`, or null (a brand, or
 * renamed). The Settings form passes the presets it has loaded with its providers, so the
 * name it fills in on picking a preset is translated at once, not after the shared load.
 */
function presetKey(provider: Named, among: readonly ProviderPresetDto[]) {
  const presetName = among.find((entry) => entry.preset === provider.preset)?.display_name;
  return presetNameKey(provider.preset, provider.display_name, presetName);
}

function sharedPresets(): readonly ProviderPresetDto[] {
  loadPresets();
  return presets;
}

/** Whether the provider still has the name its preset gave it (translated, so said in the UI's language). */
export function hasPresetName(
  provider: Named,
  among: readonly ProviderPresetDto[] = sharedPresets(),
): boolean {
  return presetKey(provider, among) !== null;
}

/** The provider's name as the UI shows it, judged against `among` (the shared presets by default). */
export function shownProviderName(
  provider: Named,
  among: readonly ProviderPresetDto[] = sharedPresets(),
): string {
  const key = presetKey(provider, among);
  return key ? t(key) : provider.display_name;
}
