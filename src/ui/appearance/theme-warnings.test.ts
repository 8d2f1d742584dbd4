import { describe, expect, it } from 'vitest';
import { refusedFields, themeWarningText } from './theme-warnings';

const translate = (key: string, params: Record<string, string>): string => `${key} ${JSON.stringify(params)}`;

describe('themeWarningText', () => {
  it('turns each warning the checker writes into a message with its values', () => {
    expect(themeWarningText('Line 3: CSS that could not be parsed was ignored.', translate)).toBe(
      'themes.warn.unparsed {"line":"3"}',
    );
    expect(themeWarningText('Line 12: @import is not supported and was ignored.', translate)).toBe(
      'themes.warn.atRule {"line":"12","rule":"import"}',
    );
    expect(themeWarningText('Line 7: a selector that could not be parsed was ignored.', translate)).toBe(
      'themes.warn.selector {"line":"7"}',
    );
    expect(themeWarningText('This theme needs app version 9.0.0 or later (this is 0.1.0).', translate)).toBe(
      'themes.warn.version {"version":"9.0.0","current":"0.1.0"}',
    );
  });

  it('shows a warning it does not know as written', () => {
    expect(themeWarningText('Something new happened.', translate)).toBe('Something new happened.');
  });
});

describe('refusedFields', () => {
  it('lists the manifest fields a refusal names, once each', () => {
    expect(
      refusedFields({
        fields: [
          { path: 'version', message: 'Required' },
          { path: 'css_entry', message: 'Required' },
          { path: 'version', message: 'Invalid' },
        ],
      }),
    ).toEqual(['version', 'css_entry']);
  });

  it('is empty when the refusal names none', () => {
    expect(refusedFields(undefined)).toEqual([]);
    expect(refusedFields({ fields: [{ path: '' }, { message: 'x' }] })).toEqual([]);
    expect(refusedFields({ line: 3 })).toEqual([]);
  });
});
