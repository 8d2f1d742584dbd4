import type {
  CommandContext,
  CommandEffect,
  CommandLocation,
  PluginCommandDto,
  PluginDto,
  PluginSettingValue,
} from '../../contracts/plugin-types';
import * as Comlink from 'comlink';
import { CoalescedRun } from '../../core/cross-tab-changes';
import { core } from '../api/core-client';
import { confirmation } from '../dialogs/confirm.svelte';
import { reportError } from '../errors';
import { downloadBytes } from '../jobs/download';
import { layout } from '../layout.svelte';
import { openSettings } from '../settings/settings-nav.svelte';
import { toasts } from '../toasts/toasts.svelte';
import { t } from '../i18n';
import { pluginRefusal } from './plugin-refusal';
import { settingsErrorText } from './plugin-settings-errors';
import { pluginsState } from './plugins.svelte';
import { toolCallErrorText } from './tool-call-error';
import { toolTryFailureText } from './tool-try-failure';

/** The installed plugins and their published tools, into the page's state. */
async function readPluginsAndTools(): Promise<PluginDto[]> {
  const [{ items }, tools] = await Promise.all([core.plugins.list(), core.plugins.tools()]);
  pluginsState.setPlugins(items, tools.items);
  return items;
}

const pluginListeners = new Set<() => void>();

/** One read at a time: plugins that start one after another cause one more read, not one each. */
const rereadPlugins = new CoalescedRun(async () => {
  try {
    await readPluginsAndTools();
  } finally {
    for (const listener of pluginListeners) listener();
  }
});

let watching: Promise<void> | undefined;

/**
 * Asks the core to say when a plugin becomes ready, stops or fails: after a reload the
 * enabled plugins start one after another in the background, after the page's first read,
 * so their rows and tools (the Agent view's list, the names a prompt uses) would stay as
 * that read found them. Waited for before a read, so no change falls between the two.
 */
function watchPlugins(): Promise<void> {
  // Through a promise: an in-thread core (tests) answers without one, or throws.
  watching ??= Promise.resolve()
    .then(() => core.plugins.watch(Comlink.proxy(() => void rereadPlugins.request())))
    .catch((error: unknown) => console.warn('Could not follow the plugins', error));
  return watching;
}

/**
 * Calls `listener` after the page re-read the plugins and their tools because one of them
 * became ready, stopped or failed; returns a function that stops it.
 */
export function onPluginsChanged(listener: () => void): () => void {
  pluginListeners.add(listener);
  void watchPlugins();
  return () => pluginListeners.delete(listener);
}

/** Reads the installed plugins, their published tools and each one's settings. */
export async function refreshPlugins(): Promise<void> {
  try {
    await watchPlugins();
    const items = await readPluginsAndTools();
    const settings = await Promise.all(
      items.map((plugin) => core.plugins.getSettings({ plugin_id: plugin.plugin_id })),
    );
    for (const entry of settings) pluginsState.setSettings(entry);
    pluginsState.setCompanion(await core.plugins.companion());
  } catch (error) {
    reportError(error);
  }
}

/**
 * The plugins and their published tools without their settings: enough for a
 * view that names a plugin's tool. Failing leaves the names as they were (ids).
 */
export async function refreshPluginNames(): Promise<void> {
  try {
    await watchPlugins();
    await readPluginsAndTools();
  } catch (error) {
    console.warn('Could not read the plugin names', error);
  }
}

/**
 * The picked file goes to the worker as bytes, is staged by opaque id, then
 * installed. A refusal stays beside the install button (a toast would sit
 * under the Settings dialog) until the next attempt clears it.
 */
export async function installPluginFile(file: File): Promise<void> {
  pluginsState.setRefusal(null);
  pluginsState.setInstalling(true);
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { package_id } = await core.plugins.stagePackage({ name: file.name, bytes });
    const plugin = await core.plugins.install({ package_id });
    toasts.show(t('plugins.installed', { name: plugin.name }), { kind: 'success' });
  } catch (error) {
    const refusal = pluginRefusal(error);
    if (refusal?.code === 'INTERNAL_ERROR') console.error(error);
    pluginsState.setRefusal(refusal);
  } finally {
    pluginsState.setInstalling(false);
  }
  await refreshPlugins();
}

/**
 * A plugin's settings and secret refusals name fields by the form's labels in the
 * UI's language (the core's message names keys, in English); others go the usual way.
 */
function reportPluginError(error: unknown): void {
  const refusal = pluginRefusal(error);
  const pluginId = typeof refusal?.details.plugin_id === 'string' ? refusal.details.plugin_id : null;
  const text =
    refusal &&
    settingsErrorText(refusal, {
      pluginName: pluginsState.plugins.find((plugin) => plugin.plugin_id === pluginId)?.name ?? null,
      fields: (pluginId !== null && pluginsState.settingsOf(pluginId)?.fields) || [],
    });
  if (refusal && text) toasts.show(text, { kind: 'error', code: refusal.code });
  else reportError(error);
}

async function step(work: () => Promise<unknown>): Promise<boolean> {
  let ok = true;
  try {
    await work();
  } catch (error) {
    ok = false;
    reportPluginError(error);
  }
  await refreshPlugins();
  return ok;
}

/** The code is used once; the token it buys stays in the worker's vault. */
export async function pairCompanion(url: string, code: string): Promise<boolean> {
  try {
    await core.plugins.pairCompanion({ url: url.trim(), code: code.trim() });
  } catch (error) {
    // The companion answered but not to this page: say which origin to allow, not "is it running?".
    const refusal = pluginRefusal(error);
    const origin = refusal?.details.reason === 'origin_refused' ? refusal.details.origin : undefined;
    if (typeof origin === 'string') {
      toasts.show(t('pluginAuthoring.companionRefusedOrigin', { origin }), {
        kind: 'error',
        code: refusal!.code,
      });
      await refreshPlugins();
      return false;
    }
    // Another server on that port: not a refusal by the companion, which is probably not running.
    const port = refusal?.details.reason === 'not_companion' ? refusal.details.port : undefined;
    if (typeof port === 'string') {
      toasts.show(t('pluginTools.companionNotCompanion', { port }), { kind: 'error', code: refusal!.code });
      await refreshPlugins();
      return false;
    }
    // An answer this page may not read: another program, or a companion (an older one) refusing this origin.
    const unreadable = refusal?.details.reason === 'unreadable_answer' ? refusal.details : undefined;
    if (typeof unreadable?.port === 'string') {
      toasts.show(
        t('pluginTools.companionUnreadable', {
          port: unreadable.port,
          origin: typeof unreadable.origin === 'string' ? unreadable.origin : '',
        }),
        { kind: 'error', code: refusal!.code },
      );
      await refreshPlugins();
      return false;
    }
    return step(() => Promise.reject(error));
  }
  await refreshPlugins();
  return true;
}

export const grantPermissions = (pluginId: string, permissions: string[]) =>
  step(() => core.plugins.grantPermissions({ plugin_id: pluginId, permissions }));
export const enablePlugin = (pluginId: string) => step(() => core.plugins.enable({ plugin_id: pluginId }));
export const disablePlugin = (pluginId: string) => step(() => core.plugins.disable({ plugin_id: pluginId }));
export const restartPlugin = (pluginId: string) => step(() => core.plugins.restart({ plugin_id: pluginId }));

/** Saves the example plugin's .zip: installed as it is it works, unpacked it shows how a plugin is made. */
export async function downloadExamplePlugin(): Promise<void> {
  try {
    const file = await core.plugins.examplePackage();
    downloadBytes(file.data, file.file_name, file.mime_type);
  } catch (error) {
    reportError(error);
  }
}

export async function uninstallPlugin(pluginId: string, name: string): Promise<void> {
  const confirmed = await confirmation.ask({
    title: t('plugins.uninstall'),
    message: t('plugins.uninstallConfirm', { name }),
    confirmLabel: t('plugins.uninstall'),
    danger: true,
  });
  if (confirmed) await step(() => core.plugins.uninstall({ plugin_id: pluginId }));
}

export async function saveSettings(
  pluginId: string,
  schemaVersion: number,
  values: Record<string, PluginSettingValue>,
): Promise<void> {
  const saved = await step(() =>
    core.plugins.updateSettings({ plugin_id: pluginId, schema_version: schemaVersion, values }),
  );
  if (saved) toasts.show(t('plugins.settingsSaved'), { kind: 'success' });
}

/** The plaintext goes to the worker once and is never kept here. */
export async function saveSecret(pluginId: string, key: string, secret: string): Promise<void> {
  const saved = await step(() => core.plugins.putSecret({ plugin_id: pluginId, key, secret }));
  if (saved) toasts.show(t('plugins.secretSaved'), { kind: 'success' });
}

export const clearSecret = (pluginId: string, key: string) =>
  step(() => core.plugins.deleteSecret({ plugin_id: pluginId, key }));

/**
 * A try's outcome: the tool's text, or a sentence saying what went wrong and what to do (a
 * tool that ran and reported an error: that error in its own words). Failures are also
 * shown as a toast.
 */
export type ToolTryOutcome = { ok: true; text: string } | { ok: false; reason: string };

export async function tryTool(name: string, argumentsJson: string): Promise<ToolTryOutcome> {
  let args: unknown;
  try {
    args = JSON.parse(argumentsJson || '{}');
  } catch {
    args = null;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    const reason = t('plugins.toolArgumentsInvalid');
    toasts.show(reason, { kind: 'error' });
    return { ok: false, reason: t('plugins.tryNotRun', { reason }) };
  }
  try {
    const outcome = await core.plugins.callTool({ name, arguments: args as Record<string, unknown> });
    return { ok: true, text: outcome.text };
  } catch (error) {
    // Arguments the tool's schema refuses: which argument and why, not only "some values are not valid".
    const refusal = pluginRefusal(error);
    const text = refusal && toolCallErrorText(refusal);
    if (refusal && text) toasts.show(text, { kind: 'error', code: refusal.code });
    else reportPluginError(error);
    return { ok: false, reason: toolTryFailureText(refusal) };
  }
}

/** The context the palette may hand to a command: the open note and the selected text. */
export function currentContext(noteId: string | null): CommandContext {
  const selection = globalThis.getSelection?.()?.toString() ?? '';
  return { ...(noteId && { note_id: noteId }), ...(selection && { selection: selection.slice(0, 100_000) }) };
}

/** The commands offered at a location whose `when` holds, as the host decides. */
async function commandsAt(location: CommandLocation, context: CommandContext): Promise<PluginCommandDto[]> {
  // A plain copy: a $state proxy cannot cross to the worker.
  const { items } = await core.plugins.listCommands({ location, context: { ...context } });
  return items;
}

export async function openPalette(context: CommandContext): Promise<void> {
  pluginsState.setPaletteOpen(true);
  try {
    pluginsState.setCommands(await commandsAt('command_palette', context));
  } catch (error) {
    reportError(error);
  }
}

/** The editor's context menu entries, with and without a selection. */
export interface ContextMenuCommands {
  withSelection: PluginCommandDto[];
  withoutSelection: PluginCommandDto[];
}

/**
 * Asked ahead of the right-click: the browser decides on its own menu
 * synchronously, so the answer must already be here when the event comes.
 * Only whether a selection exists can change `when`, not its text, so a
 * stand-in selection asks the host the same question.
 */
export async function contextMenuCommands(noteId: string | null): Promise<ContextMenuCommands | null> {
  const base: CommandContext = noteId ? { note_id: noteId } : {};
  try {
    const [withSelection, withoutSelection] = await Promise.all([
      commandsAt('context_menu', { ...base, selection: ' ' }),
      commandsAt('context_menu', base),
    ]);
    return { withSelection, withoutSelection };
  } catch (error) {
    reportError(error);
    return null;
  }
}

/** Effects are data: each kind has one fixed reaction, nothing is run as code. */
export function applyEffect(effect: CommandEffect, title: string): void {
  switch (effect.type) {
    case 'none':
      toasts.show(t('palette.done', { title }), { kind: 'success' });
      return;
    case 'notification':
      toasts.show(effect.payload.message, {
        kind:
          effect.payload.level === 'error' || effect.payload.level === 'warning'
            ? 'error'
            : effect.payload.level === 'success'
              ? 'success'
              : 'info',
      });
      return;
    case 'navigate':
      if (effect.payload.route === 'settings' || effect.payload.route === 'plugins')
        openSettings(effect.payload.route === 'plugins' ? 'plugins' : undefined);
      else if (effect.payload.route === 'search') layout.setView('notes');
      else layout.setView(effect.payload.route);
      return;
    case 'refresh':
      void refreshPlugins();
      return;
    case 'job':
      toasts.show(t('palette.done', { title }), { kind: 'info' });
      return;
    default: {
      const unknown: never = effect;
      console.warn('unknown command effect', unknown);
    }
  }
}

export async function runCommand(commandId: string, title: string, context: CommandContext): Promise<void> {
  pluginsState.setPaletteOpen(false);
  try {
    const result = await core.plugins.executeCommand({
      command_id: commandId,
      arguments: {},
      context: { ...context },
    });
    applyEffect(result.effect, title);
  } catch (error) {
    reportPluginError(error);
  }
}
