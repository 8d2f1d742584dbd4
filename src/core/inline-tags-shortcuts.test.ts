import { describe, expect, it } from 'vitest';
import { inlineTags, inlineTagsParsingEverything } from './inline-tags';

/**
 * `inlineTags` skips parsing what cannot hold a tag; these notes check that it
 * finds what parsing the whole note finds, on the constructs that span blank
 * lines, hide tags or end paragraphs.
 */

const tables: Record<string, string> = {
  'fence open across fresh blocks': 'A #a\n\n```\ncode\n\nLetter #no\n\n```\n\nAfter #b\n',
  'fence never closed': 'A #a\n\n~~~~\n\nLetter #no\n\n~~~\n\nStill #no\n',
  'fence in a list item, closed by the next block':
    '- item\n\n  ```\n  code\n\nPara #a\n\n```\n\nIn #no\n\n```\n\nOut #b\n',
  'code with blank lines and letters at the first column, back to back fences':
    '```py\nimport os\n\ndef f(): #no\n\nclass A: #no\n```\n\n```\n\nText #no\n```\n\nAfter #a\n',
  'a closing mark the parser does not see as a line':
    '```\n\nText #no\u2028```\n\nMore #no\n\n```\n\nOut #a\n',
  'math block across blank lines': 'A #a\n\n$$\nx\n\nLetter #no\n$$\n\nB #b\n',
  'unclosed math block is text': 'A #a\n\n$$\n\nLetter #yes\n',
  'html block to its end mark': 'A #a\n\n<!--\n\nLetter #no\n\n-->\n\nB #b\n',
  'pre block': '<pre>\n\nLetter #no\n\n</pre>\n\nB #b\n',
  'reference definition after the paragraph': 'See [label #no] and #a\n\nText\n\n[label #no]: /url\n',
  'reference definition far away': 'See [x #no]\n\n' + 'Filler line.\n\n'.repeat(20) + '[x #no]: /u\n',
  'reference definition without a tag': 'See [text #no][ref] and #a\n\nText\n\n[ref]: /url\n',
  'footnote defined later': 'Note [^n #no] #a\n\n[^n #no]: text\n',
  'footnote not defined': 'Note [^n #yes] #a\n',
  'front matter with blank lines': '---\ntitle: x\n\ncolor: "#fff"\n---\nBody #a\n\nText #b\n',
  'not front matter': '---\nSome words\n\nMore #x\n---\n',
  'setext heading and table': 'Head #a\n===\n\n| x | y |\n| - | - |\n|#c| d |\n\nPara #d\n',
  'lists and quotes across blank lines': '- a #a\n\n  still #b\n\nPara #c\n\n> q #d\n\nlazy #e\n',
  'indented code after a blank line': 'Para\n\n    #no code\n\nText #a\n',
  'CRLF and lone CR': 'A #a\r\n\r\nB #b\r\n\r\n```\r\n#no\r\n```\r\n\r\nC #c\rD\r\n',
  'NUL and unicode spaces': 'A\u0000#no #a\n\n\u3000#b\n\nText\u00a0#c\n',
  'javascript link label':
    'See [x #no](javascript:alert) and [y #no](JAVASCRIPT:x) #a\n\n[z #no](data:image/png;x) #b\n',
  headings: '# Title #a\n\n#notheading #b\n\n## Closing ##\n\n#\n\nText #c\n',
  'emphasis and underscores': '_#a_ and __#b__ #c_d e_ #f_\n\nx_#no #g__h\n\n*#i* and **#j**\n',
  'escapes and code spans': '\\#no `#no` $#no$ #a\n\nPara `open\n\nNext #b`\n',
  'tag right at a cut': 'A\n\n#a\n\n#b/c\n\n#123\n',
};

describe('inlineTags shortcuts', () => {
  for (const [name, body] of Object.entries(tables)) {
    it(`finds what a whole parse finds: ${name}`, () => {
      expect(inlineTags(body)).toEqual(inlineTagsParsingEverything(body));
    });
  }

  it('finds what a whole parse finds in random notes', () => {
    const pieces = [
      'Para #tag',
      'Plain text #Tag/Sub',
      'Text with **bold #b** and _em_',
      '#start of line',
      '# Heading #h',
      '```',
      '```js',
      '~~~',
      '````',
      '  ```',
      '$$',
      '$$ x $$',
      '<!--',
      '-->',
      '<pre>',
      '</pre>',
      '<div>',
      '- item #li',
      '  continued #lc',
      '1. one #o',
      '> quote #q',
      '    indented #ic',
      '| a | #t |',
      '| - | - |',
      '---',
      '===',
      '[ref #r]: /url',
      '[ref #r]',
      '[r]: /u',
      'See [t #no][r]',
      '*#em*',
      '**#strong**',
      '[^f]: foot #fd',
      'x [^f] #fr',
      '[link #l](javascript:x)',
      '<https://a.b/#c>',
      'http://x.y/#z #u',
      'a `code #c` b',
      'a \\#e #f',
      'word_with_under #w_x',
      'Zeile #ä_ö',
      '中文 #读书笔记',
      '',
      '',
      '',
      ' ',
      '\t',
      'Text\r',
      'Letter',
    ];
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let note = 0; note < 1500; note++) {
      const lines: string[] = [];
      const length = 1 + random(30);
      // Half the notes without `$$` and HTML, after which nothing is cut.
      const pool = note % 2 === 0 ? pieces : pieces.filter((piece) => !/\$\$|</.test(piece));
      for (let line = 0; line < length; line++) lines.push(pool[random(pool.length)]!);
      const body =
        (random(6) === 0 ? '---\ntitle: t\n---\n' : '') + lines.join(random(8) === 0 ? '\r\n' : '\n');
      expect(inlineTags(body), body).toEqual(inlineTagsParsingEverything(body));
    }
  });
});
