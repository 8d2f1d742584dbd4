import { describe, expect, it } from 'vitest';
import {
  readTranscriptionChoices,
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
    writeTranscriptionChoices(storage, { language: 'zh', profile_id: 'large' });
    expect(readTranscriptionChoices(storage)).toEqual({ language: 'zh', profile_id: 'large' });
  });

  it('fall back to automatic detection and the Settings model when missing, unreadable or odd', () => {
    const fallback = { language: '', profile_id: null };
    expect(readTranscriptionChoices(null)).toEqual(fallback);
    expect(readTranscriptionChoices(memoryStorage({ [TRANSCRIPTION_CHOICES_KEY]: 'not json' }))).toEqual(
      fallback,
    );
    const odd = JSON.stringify({ language: 'klingon', profile_id: '../../models' });
    expect(readTranscriptionChoices(memoryStorage({ [TRANSCRIPTION_CHOICES_KEY]: odd }))).toEqual(fallback);
  });

  it('a full storage only loses the memory', () => {
    const full = {
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => writeTranscriptionChoices(full, { language: 'zh', profile_id: null })).not.toThrow();
  });

  it('start with the remembered model while it is offered, else the one Settings names', () => {
    const profiles = [{ profile_id: 'default' }, { profile_id: 'large' }];
    expect(startingProfile('large', profiles, 'default')).toBe('large');
    expect(startingProfile('removed', profiles, 'default')).toBe('default');
    expect(startingProfile(null, profiles, 'default')).toBe('default');
  });
});
