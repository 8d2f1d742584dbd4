import type { ChineseScript } from '../../media/chinese-script';

/**
 * The language and model last chosen for a transcription, kept on this device (like the
 * export options): a student who transcribes every lecture in 中文 picks it once, not for
 * every file and after every reload.
 */
export interface TranscriptionChoices {
  /** '' is automatic detection. */
  language: string;
  /** null: the one Settings names. */
  profile_id: string | null;
  /** The script a Chinese transcript is written in; null: the default for the app's language. */
  chinese_script: ChineseScript | null;
}

/** The choices of script, in the order offered; the core reads the job's `metadata.chinese_script`. */
export const CHINESE_SCRIPT_CHOICES = [
  'simplified',
  'traditional',
  'unchanged',
] as const satisfies readonly ChineseScript[];

/**
 * The script a new transcription asks for: the one last chosen, else Simplified for someone
 * who reads the app in 简体中文 (Whisper often writes Traditional for zh), else as Whisper writes it.
 */
export function startingChineseScript(remembered: ChineseScript | null, locale: string): ChineseScript {
  return remembered ?? (locale === 'zh-CN' ? 'simplified' : 'unchanged');
}

/** Whether a job in this language ('' detects it) may come out in Chinese, so the script matters. */
export function mayBeChinese(language: string): boolean {
  return language === '' || language === 'zh';
}

/**
 * Whisper's most asked-for languages; anything else is detected automatically. Each is
 * named in itself, with the tag a screen reader picks its voice by ('中文' in an English voice
 * is noise).
 */
export const TRANSCRIPTION_LANGUAGES = [
  ['en', 'English', 'en'],
  ['zh', '中文', 'zh-CN'],
  ['ja', '日本語', 'ja'],
  ['ko', '한국어', 'ko'],
  ['de', 'Deutsch', 'de'],
  ['fr', 'Français', 'fr'],
  ['es', 'Español', 'es'],
  ['ru', 'Русский', 'ru'],
] as const;

export const TRANSCRIPTION_CHOICES_KEY = 'notesagent.transcription-options';

/** The contract's profile id shape: anything else in storage is not sent. */
const PROFILE_ID = /^[\w.-]{1,64}$/;

const KNOWN_LANGUAGES: ReadonlySet<string> = new Set(TRANSCRIPTION_LANGUAGES.map(([code]) => code));

/** The stored choices; each falls back to its default when missing or not understood. */
export function readTranscriptionChoices(storage: Pick<Storage, 'getItem'> | null): TranscriptionChoices {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(TRANSCRIPTION_CHOICES_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      stored = parsed as Record<string, unknown>;
  } catch {
    // Unreadable (another build's shape, or a hand edit): the defaults stand.
  }
  const { language, profile_id: profileId, chinese_script: script } = stored;
  return {
    language: typeof language === 'string' && KNOWN_LANGUAGES.has(language) ? language : '',
    profile_id: typeof profileId === 'string' && PROFILE_ID.test(profileId) ? profileId : null,
    chinese_script: (CHINESE_SCRIPT_CHOICES as readonly unknown[]).includes(script)
      ? (script as ChineseScript)
      : null,
  };
}

/** Keeps the choices for the next file; a full or missing storage only loses the memory of them. */
export function writeTranscriptionChoices(
  storage: Pick<Storage, 'setItem'> | null,
  choices: TranscriptionChoices,
): void {
  try {
    storage?.setItem(TRANSCRIPTION_CHOICES_KEY, JSON.stringify(choices));
  } catch {
    // Quota or private mode: this session still uses the choice.
  }
}

/**
 * The model a new transcription starts with: the one last chosen while it is still
 * offered (a profile removed since would fail every job), otherwise the one Settings names.
 */
export function startingProfile(
  remembered: string | null,
  profiles: ReadonlyArray<{ profile_id: string }>,
  fallback: string,
): string {
  return remembered !== null && profiles.some((profile) => profile.profile_id === remembered)
    ? remembered
    : fallback;
}

/** This device's storage; null where the browser refuses it (a sandbox, private mode). */
export function deviceStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
