// Finding a note's inline `#tags` when it is saved: `inlineTags` (parses only
// what may hold a tag) against `inlineTagsParsingEverything` (the whole note
// through the block parser, every paragraph with a `#` through the inline
// parser, as before), on 5 MiB notes. `npx tsx bench/inline-tags.ts` runs
// these alone.
import { pathToFileURL } from 'node:url';
import { inlineTags, inlineTagsParsingEverything } from '../src/core/inline-tags';
import { compare, report, type BenchResult } from './harness';

function note(chars: number, paragraph: (i: number) => string): string {
  const parts: string[] = [];
  for (let i = 0, length = 0; length < chars; i++) {
    const part = paragraph(i);
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n').slice(0, chars);
}

export async function inlineTagsBenchmarks(scale: number): Promise<BenchResult[]> {
  const chars = Math.round(5 * 1024 * 1024 * Math.min(1, scale));
  const size = `${(chars / 1024 / 1024).toFixed(1)} MiB`;
  const cases: Array<[string, string]> = [
    [
      `${size}, #tag in every plain paragraph`,
      note(chars, (i) => `Paragraph ${i} on scheduling and 调度, words to read #topic${i % 50} and the end.`),
    ],
    [
      `${size}, #tag in every paragraph with links and bold`,
      note(
        chars,
        (i) => `Paragraph ${i} on **scheduling**, a [link](https://x.y/${i}) #topic${i % 50} and more.`,
      ),
    ],
    [
      `${size}, a few tags, a code fence first`,
      '```js\nlet x = 1;\n```\n\n' +
        note(
          chars,
          (i) => `Paragraph ${i} on **scheduling** and 调度${i % 5000 === 7 ? ` #topic${i}` : ''}.`,
        ),
    ],
    [
      `${size}, code fences with blank lines, a tagged paragraph after each`,
      note(chars, (i) =>
        i % 2 === 1
          ? `Text ${i} with a [link](x) #t${i % 9}`
          : '```py\nimport os\n\ndef f():\n    pass\n\nclass A:\n    x = 1\n```',
      ),
    ],
  ];
  const results: BenchResult[] = [];
  for (const [name, body] of cases) {
    const same = JSON.stringify(inlineTags(body)) === JSON.stringify(inlineTagsParsingEverything(body));
    if (!same) throw new Error(`inline tags differ from a whole parse: ${name}`);
    const result = await compare(
      `inline tags: ${name}`,
      'whole-note parse',
      async () => void inlineTags(body),
      async () => void inlineTagsParsingEverything(body),
    );
    console.log(
      `${result.name}: ${result.ms.toFixed(0)} ms vs ${result.baselineMs.toFixed(0)} ms (${result.ratio.toFixed(2)}×)`,
    );
    results.push(result);
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(report(await inlineTagsBenchmarks(Number(process.env.BENCH_SCALE ?? 1))));
}
