import { describe, expect, it } from 'vitest';
import { translateWarning } from './export-warnings';

const echo = (key: string, params: Readonly<Record<string, string | number>>) =>
  `${key} ${JSON.stringify(params)}`;

describe('translateWarning', () => {
  it.each([
    [
      'PDF: images that are not stored in the note (links to the web) are shown as their alt text.',
      'export.warning.webImage {"format":"PDF"}',
    ],
    ['DOCX: raw HTML is left out.', 'export.warning.rawHtml {"format":"DOCX"}'],
    [
      'PDF: a formula could not be typeset (Undefined control sequence: \\foo); it is shown as its TeX source.',
      'export.warning.formula {"format":"PDF","reason":"Undefined control sequence: \\\\foo"}',
    ],
    ['y = 0/0 has no finite value in the domain.', 'export.warning.noValue {"label":"y = 0/0"}'],
    [
      'FUNCTION_PLOT_PARSE_FAILED: Function plot (line 4, column 1) kept as source: Unknown name "foo"',
      'export.warning.plotSource {"line":"4","message":"Unknown name \\"foo\\""}',
    ],
    [
      'FUNCTION_PLOT_PARSE_FAILED: Function plot kept as source: Unknown name "foo"',
      'export.warning.plotSourceUnplaced {"message":"Unknown name \\"foo\\""}',
    ],
    [
      'MERMAID_PARSE_FAILED: Diagram (line 12) kept as source: Parse error',
      'export.warning.diagramSource {"line":"12","message":"Parse error"}',
    ],
  ])('names the kind of %s', (warning, expected) => {
    expect(translateWarning(warning, echo)).toBe(expected);
  });

  it('passes a warning of no known kind on as it is', () => {
    expect(translateWarning('Something new happened.', echo)).toBe('Something new happened.');
  });
});
