/**
 * An answer's Markdown as a screen reader should say it: the words, without the marks
 * (`**`, `#`, backticks, link targets, table pipes) that would otherwise be read out.
 * Cut at `limit` characters, at a word where there is one.
 */
export function spokenAnswer(markdown: string, limit = 600): string {
  const text = markdown
    .replace(/^\s*(```|~~~).*$/gm, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?[-:| ]+\|[-:| ]*$/gm, ' ')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__|~~|`+|\*|\$\$?)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return `${(space > limit / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The first line of a text with something on it, for a one-line announcement. */
export function firstLine(text: string, limit = 200): string {
  return spokenAnswer(text.split('\n').find((candidate) => candidate.trim() !== '') ?? '', limit);
}
