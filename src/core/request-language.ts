/**
 * The language a scripted model (the demo agent, the mock provider) answers in.
 * They run in the core, where the UI language is not known, and a real model
 * answers in the language it was asked in: so do they. A request with any Han
 * character is Chinese (mixed notes often keep English terms inside a Chinese
 * sentence); anything else stays English.
 */
export type RequestLanguage = 'zh' | 'en';

const HAN = /\p{Script=Han}/u;

export function requestLanguage(text: string): RequestLanguage {
  return HAN.test(text) ? 'zh' : 'en';
}
