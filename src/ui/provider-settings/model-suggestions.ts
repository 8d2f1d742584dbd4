import { editDistance } from '../../core/edit-distance';

/**
 * The listed models nearest to a name the provider does not list, nearest first
 * (edits, case ignored; ties keep the provider's order): a typo such as
 * `deepseek-chatt` puts `deepseek-chat` first.
 */
export function closestModels(typed: string, listed: readonly string[], limit = 5): string[] {
  const wanted = typed.trim().toLowerCase();
  return listed
    .map((id, index) => ({ id, index, score: editDistance(wanted, id.toLowerCase()) }))
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.id);
}
