import { linkKey } from './wikilinks-key';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/**
 * The 0-based line of the place a link's fragment names in `body`: for
 * `Heading` the first ATX heading with that text (compared as titles are, and
 * for `A#B` Obsidian's nested form, the last part), for `^id` the line that
 * ends with that block id. Null when the note has no such place: the link then
 * opens the note at its top, as Obsidian does. Lines in fenced code never match.
 */
export function fragmentLine(body: string, fragment: string): number | null {
  const wanted = fragment.trim();
  if (wanted === '') return null;
  const block = wanted.startsWith('^') ? wanted : null;
  const headingKey = block === null ? linkKey(wanted.slice(wanted.lastIndexOf('#') + 1)) : '';
  if (block === null && headingKey === '') return null;
  const lines = body.split('\n');
  let fence: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    if (block !== null) {
      const trimmed = line.trimEnd();
      if (trimmed === block || trimmed.endsWith(` ${block}`)) return index;
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading && linkKey(heading[1] ?? '') === headingKey) return index;
  }
  return null;
}
