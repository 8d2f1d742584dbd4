import { describe, expect, it } from 'vitest';
import { firstLine, spokenAnswer } from './spoken-answer';

describe('spokenAnswer', () => {
  it('keeps the words and drops the Markdown marks', () => {
    expect(
      spokenAnswer(
        '## Deadlock\n\n- **Mutual** exclusion, see [the note](#citation-1) and `code`.\n> quoted',
      ),
    ).toBe('Deadlock Mutual exclusion, see the note and code. quoted');
  });

  it('reads a table as its cells and a fenced block as its lines', () => {
    expect(spokenAnswer('| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```js\nlet x;\n```')).toBe('a b 1 2 let x;');
  });

  it('keeps citation markers and cuts a long answer at a word', () => {
    expect(spokenAnswer('See [1].')).toBe('See [1].');
    expect(spokenAnswer('one two three four five', 12)).toBe('one two…');
  });
});

describe('firstLine', () => {
  it('is the first line with text on it', () => {
    expect(firstLine('\n\n**Done**: three tasks added.\nMore detail.')).toBe('Done: three tasks added.');
    expect(firstLine('')).toBe('');
  });
});
