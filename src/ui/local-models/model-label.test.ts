import { describe, expect, it } from 'vitest';
import { modelBaseName, modelLanguagesKey } from './model-label';

describe('modelBaseName', () => {
  it('drops the language parenthesis and keeps the brand', () => {
    expect(modelBaseName('BGE small zh v1.5 (中文为主)')).toBe('BGE small zh v1.5');
    expect(modelBaseName('Multilingual E5 small (中文 + English)')).toBe('Multilingual E5 small');
    expect(modelBaseName('MS MARCO MiniLM-L6 (English)')).toBe('MS MARCO MiniLM-L6');
  });

  it('keeps a parenthesis that is part of the name', () => {
    expect(modelBaseName('Gemma 2 2B (1k context)')).toBe('Gemma 2 2B (1k context)');
  });
});

describe('modelLanguagesKey', () => {
  it('says which languages a model serves', () => {
    expect(modelLanguagesKey(['multilingual', 'zh', 'en'])).toBe('settingsForm.lang.multilingual');
    expect(modelLanguagesKey(['zh', 'en'])).toBe('settingsForm.lang.mostlyChinese');
    expect(modelLanguagesKey(['en'])).toBe('settingsForm.lang.english');
    expect(modelLanguagesKey([])).toBeNull();
  });
});
