import { describe, expect, it } from 'vitest';
import {
  mayBeChinese,
  readTranscriptionChoices,
  startingChineseScript,
  startingProfile,
  TRANSCRIPTION_CHOICES_KEY,
  writeTranscriptionChoices,
} from './transcription-choices';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('transcription choices', () => {
  it('come back as they were written', () => {
    const storage = memoryStorage();
    writeTranscriptionChoices(storage, {
      language: 'zh',
      profile_id: 'large',
      chinese_script: 'traditional',
    });
    expect(readTranscriptionChoices(storage)).toEqual({
      language: 'zh',
      profile_id: 'large',
      chinese_script: 'traditional',
    });
  });

  it('fall back to automatic detection and the Settings model when missing, unreadable or odd', () => {
    const fallback = { language: '', profile_id: null, chinese_script: null };
    expect(readTranscriptionChoices(null)).toEqual(fallback);
    expect(readTranscriptionChoices(memoryStorage({ [TRANSCRIPTION_CHOICES_KEY]: 'not json' }))).toEqual(
      fallback,
    );
    const odd = JSON.stringify({ language: 'klingon', profile_id: '../../models', chinese_script: 'pinyin' });
    expect(readTranscriptionChoices(memoryStorage({ [TRANSCRIPTION_CHOICES_KEY]: odd }))).toEqual(fallback);
  });

  it('a full storage only loses the memory', () => {
    const full = {
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() =>
      writeTranscriptionChoices(full, { language: 'zh', profile_id: null, chinese_script: null }),
    ).not.toThrow();
  });

  it('start with the remembered model while it is offered, else the one Settings names', () => {
    const profiles = [{ profile_id: 'default' }, { profile_id: 'large' }];
    expect(startingProfile('large', profiles, 'default')).toBe('large');
    expect(startingProfile('removed', profiles, 'default')).toBe('default');
    expect(startingProfile(null, profiles, 'default')).toBe('default');
  });

  it('write Chinese in Simplified for a 简体中文 reader until another script is chosen; as Whisper writes it otherwise', () => {
    expect(startingChineseScript(null, 'zh-CN')).toBe('simplified');
    expect(startingChineseScript(null, 'en')).toBe('unchanged');
    expect(startingChineseScript('traditional', 'zh-CN')).toBe('traditional');
    expect(startingChineseScript('unchanged', 'zh-CN')).toBe('unchanged');
  });

  it('offer the script for 中文 and for automatic detection, not for another language', () => {
    expect(mayBeChinese('zh')).toBe(true);
    expect(mayBeChinese('')).toBe(true);
    expect(mayBeChinese('ja')).toBe(false);
  });
});
