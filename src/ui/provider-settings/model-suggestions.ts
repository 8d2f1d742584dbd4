/**
 * The listed models nearest to a name the provider does not list, nearest first
 * (edit distance, case ignored; ties keep the provider's order): a typo such as
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

/** Levenshtein distance, one row at a time (lists run to hundreds of ids). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length]!;
}
