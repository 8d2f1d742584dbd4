import type { ThemePackageSource } from '../../contracts/themes';
import { core } from '../api/core-client';
import { errorInfo } from '../error-message';
import { reportError } from '../errors';
import { loadSettings } from '../settings/settings.service';
import { t } from '../i18n';
import { toasts } from '../toasts/toasts.svelte';
import { applyActiveTheme } from './theme-applier';
import { refusedFields } from './theme-warnings';
import { themes } from './themes.svelte';

/** Puts the enabled theme on the page (start-up, and after every change). */
export async function loadActiveTheme(): Promise<void> {
  try {
    applyActiveTheme(await core.themes.active());
  } catch (error) {
    reportError(error);
  }
}

export async function refreshThemes(): Promise<void> {
  try {
    themes.setList(await core.themes.list());
  } catch (error) {
    reportError(error);
  }
}

function refuse(error: unknown): void {
  const info = errorInfo(error);
  if (
    !info?.code.startsWith('THEME_') &&
    info?.code !== 'PAYLOAD_TOO_LARGE' &&
    info?.code !== 'IMPORT_ARCHIVE_INVALID'
  ) {
    reportError(error);
    return;
  }
  const details = (error as { details?: Record<string, unknown> }).details ?? {};
  themes.setRefusal({
    code: info.code,
    message: info.message,
    line: typeof details.line === 'number' && details.line > 0 ? details.line : null,
    found: typeof details.found === 'string' ? details.found : null,
    fields: refusedFields(details),
    details,
  });
}

/** Files the user picked (a .zip, or a folder's files) to the core, then its inspection. */
export async function pickPackage(files: FileList | null, kind: 'zip' | 'folder'): Promise<void> {
  if (!files || files.length === 0) return;
  themes.setBusy(true);
  themes.setInspection(null);
  themes.setRefusal(null);
  try {
    let source: ThemePackageSource;
    if (kind === 'zip') {
      const file = files[0]!;
      source = { kind: 'zip', name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
    } else {
      const entries = await Promise.all(
        [...files].map(async (file) => ({
          path: file.webkitRelativePath || file.name,
          bytes: new Uint8Array(await file.arrayBuffer()),
        })),
      );
      const name = entries[0]?.path.split('/')[0] ?? 'theme';
      source = { kind: 'folder', name, entries };
    }
    const packageId = await core.themes.selectPackage(source);
    themes.setInspection(await core.themes.inspectPackage(packageId));
  } catch (error) {
    refuse(error);
  } finally {
    themes.setBusy(false);
  }
}

export function cancelInspection(): void {
  themes.setInspection(null);
}

/** The installed theme's id, or null when it was refused. */
export async function installInspected(): Promise<string | null> {
  const inspection = themes.inspection;
  if (!inspection) return null;
  themes.setBusy(true);
  try {
    const installed = await core.themes.install(inspection.package_id);
    themes.setInspection(null);
    toasts.show(t('themes.installed', { name: installed.name }), { kind: 'success' });
    await refreshThemes();
    return installed.theme_id;
  } catch (error) {
    refuse(error);
    return null;
  } finally {
    themes.setBusy(false);
  }
}

async function change(action: () => Promise<unknown>): Promise<void> {
  themes.setBusy(true);
  try {
    await action();
    // A built-in choice lives in the settings; a package in the theme store.
    await loadSettings();
    await loadActiveTheme();
    await refreshThemes();
  } catch (error) {
    reportError(error);
  } finally {
    themes.setBusy(false);
  }
}

export const enableTheme = (themeId: string) => change(() => core.themes.enable(themeId));
export const disableTheme = (themeId: string) => change(() => core.themes.disable(themeId));
export const uninstallTheme = (themeId: string, name: string) =>
  change(async () => {
    await core.themes.uninstall(themeId);
    toasts.show(t('themes.uninstalled', { name }), { kind: 'success' });
  });
