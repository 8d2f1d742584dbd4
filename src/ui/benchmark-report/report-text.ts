import { t as bt } from '../i18n';
import { translateReason } from './failure-reason';
import { modeKey } from './side-by-side';

// Called from templates: `t` reads the current language, so a switch re-renders them.

export function modeName(mode: string): string {
  const key = modeKey(mode);
  return key ? bt(key) : mode;
}

export function reasonText(reason: string): string {
  return translateReason(reason, (key, params) => bt(key, params), bt('bench.reason.separator'));
}
