import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { indexErrorText } from './index-error';

afterEach(() => i18n.setLocale('en'));

describe('indexErrorText', () => {
  it("says the index's failure by its code in the reader's language, not in the core's English", async () => {
    await i18n.setLocale('zh-CN');
    const text = indexErrorText({
      error_code: 'STORAGE_QUOTA_EXCEEDED',
      error_message: 'The storage quota was exceeded.',
    });
    expect(text).not.toBeNull();
    expect(text).not.toContain('The storage quota was exceeded.');
    expect(text).toMatch(/[\u4e00-\u9fff]/);
    await i18n.setLocale('en');
    expect(indexErrorText({ error_code: 'INTERNAL_ERROR', error_message: 'Indexing failed.' })).not.toContain(
      'Indexing failed.',
    );
  });

  it('is null when nothing failed, and the message as it is from a status without a code', () => {
    expect(indexErrorText({ error_code: null, error_message: null })).toBeNull();
    expect(indexErrorText({ error_code: null, error_message: 'Old failure' })).toBe('Old failure');
  });
});
