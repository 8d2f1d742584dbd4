import { calloutDefaultTitle, isKnownCalloutKind } from '../../core/markdown/callout-titles';
import { t, type MessageKey } from '../i18n';

/**
 * The title an untitled callout shows in the app's language: a kind Obsidian knows by its
 * name in that language, a kind of the writer's own capitalised, as Obsidian shows it.
 * Read when a block is rendered.
 */
export function appCalloutTitle(kind: string): string {
  const lower = kind.toLowerCase();
  return isKnownCalloutKind(lower)
    ? t(`obsidianMarkdown.callout.${lower}` as MessageKey)
    : calloutDefaultTitle(kind);
}
